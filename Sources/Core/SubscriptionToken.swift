/// A token that keeps a subscription alive: the subscription ends when the token is cancelled
/// or released.
///
/// ```swift
/// let token = relay.subscribe { print($0) }
/// token.cancel()   // or let `token` go
/// ```
///
/// > Important: `cancel()` called on the thread that is delivering the subscription's changes
/// > (from inside a sink) takes effect at once: the cancelled sink is not called again, not
/// > even later in the same delivery. Called from another thread while a delivery is under
/// > way, the sink may still run once with the value already being delivered.
public final class SubscriptionToken: @unchecked Sendable {
  // Safe: `node` is only read and written under this token's stripe of `subscriptionLocks`
  // (or in `deinit`, when nothing else refers to the token).
  //
  // One stored field, so the object is 24 bytes (a 32-byte `malloc` chunk): the token's own
  // address is the subscription's identifier in the node's sinks, and a cleared `node` marks
  // it cancelled.
  /// The subscribed node until the subscription ends; then `nil`, so that a cancelled token
  /// kept in a collection does not keep the node (and what it is computed from) in memory.
  @exclusivity(unchecked) var node: AnyNode?

  @usableFromInline
  init(node: AnyNode) {
    self.node = node
  }

  deinit {
    // No lock needed: nothing else refers to the token any more, and the release that ended
    // its last reference orders every earlier write before this read.
    if let node = node.take() { end(node) }
  }

  /// The subscription's identifier among its node's sinks: the token's address, unique while
  /// the token lives.
  @usableFromInline var id: UInt64 { UInt64(UInt(bitPattern: ObjectIdentifier(self))) }

  /// The lock that guards `node`: one of a fixed set, chosen by the token's address. It is
  /// held only to read or clear the field, never while taking another lock.
  private var stripe: Lock.Handle { subscriptionLock(for: UInt(truncatingIfNeeded: id)) }

  /// Whether the subscription has ended.
  var isCancelled: Bool {
    let lock = stripe
    lock.lock()
    defer { lock.unlock() }
    return node == nil
  }

  /// Ends the subscription; later changes are not delivered. Calling it again does nothing.
  public func cancel() {
    let lock = stripe
    lock.lock()
    // Exactly one caller takes the node; it is released at the end, after every lock.
    let node = node.take()
    lock.unlock()
    if let node { end(node) }
  }

  /// Removes the subscription from `node`, taken from `self.node` by the caller.
  private func end(_ node: AnyNode) { node.endSubscription(id) }

  /// Keeps this subscription alive as long as `collection` holds it.
  public func store(in collection: inout [SubscriptionToken]) {
    collection.append(self)
  }

  /// Keeps this subscription alive as long as `set` holds it.
  public func store(in set: inout Set<SubscriptionToken>) {
    set.insert(self)
  }

  /// Keeps this subscription alive until `bag` ends its subscriptions, when it is cancelled.
  public func store(in bag: SubscriptionBag) {
    bag.store(self)
  }
}

extension AnyNode {
  /// Removes the subscription `id` from this node, and drops the handle it counted: the end of
  /// a token's subscription, or of one of a bag's.
  @inline(__always)
  func endSubscription(_ id: UInt64) {
    withRootLocked { root in
      let unused = dropHandle()
      if unused && root.role.isFree {
        // The common end, nobody delivering: the node detached and the sink removed under
        // this one lock (`detachAfterDelivery()` took it twice more); the sink dies once it
        // is let go.
        ThreadContext.withCurrent { context in
          Engine.detachTakingFreeRole(self, lockedRoot: root, context) {
            _ = steps.removeSinkAndUnlock(self, id, root)
          }
        }
        return
      }
      // The thread's context is only needed when someone is delivering this domain right now.
      let context = root.role.isFree ? nil : ThreadContext.current
      let deliveringHere = context.map { root.role.drainers.contains($0.id) } ?? false
      // Unlocks; the sink's closure dies after that, outside the lock.
      let wasRegistered = steps.removeSinkAndUnlock(self, id, root)
      if wasRegistered && deliveringHere, let context {
        context.scope.cancelledDuringDelivery.append(ObjectIdentifier(self))
      }
      if unused { detachAfterDelivery() }
    }
    #if DEBUG
      Engine.checkLocalInvariants(of: self)
    #endif
  }
}

extension SubscriptionToken: Hashable {
  /// Subscriptions are equal only to themselves.
  public static func == (lhs: SubscriptionToken, rhs: SubscriptionToken) -> Bool { lhs === rhs }

  /// Hashes the subscription's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

/// The locks that guard `SubscriptionToken.node`, a `SubscriptionBag`'s fields and an
/// `ObservationTrigger`'s, striped by the object's address so that none needs a lock (nor a
/// domain) of its own; a power of two. Each is held only to read or write those fields.
// Safe: written once, by the lazy initializer, and only read after; each handle is a lock.
nonisolated(unsafe) private let subscriptionLocks: UnsafeMutablePointer<Lock.Handle> = {
  let handles = UnsafeMutablePointer<Lock.Handle>.allocate(capacity: subscriptionLockCount)
  for index in 0..<subscriptionLockCount {
    // The locks live as long as the process: each `Lock` is retained once and never released.
    handles[index] = Unmanaged.passRetained(Lock()).takeUnretainedValue().handle
  }
  return handles
}()

/// The subscription lock for the object at `address`.
func subscriptionLock(for address: UInt) -> Lock.Handle {
  subscriptionLocks[Int(truncatingIfNeeded: address >> 4) & (subscriptionLockCount - 1)]
}

/// How many locks guard subscriptions: a power of two.
private let subscriptionLockCount = 64
