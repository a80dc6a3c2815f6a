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
public final class Subscription: @unchecked Sendable {
  // Safe: `node` is only read and written under the lock of `home`'s root; `home` and `id`
  // are immutable.
  /// The node's home domain, kept for its lock: small, and free of user values.
  let home: Domain
  /// The subscribed node until the subscription ends; then `nil`, so that a cancelled token
  /// kept in a collection does not keep the node (and what it is computed from) in memory.
  @exclusivity(unchecked) var node: AnyNode?
  let id: UInt64

  @usableFromInline
  init(node: AnyNode, id: UInt64) {
    self.home = node.home
    self.node = node
    self.id = id
  }

  deinit {
    // No lock needed to read the field: nothing else refers to the token any more, and the
    // release that ended its last reference orders every earlier write before this read.
    if node != nil { cancel() }
  }

  /// Whether the subscription has ended. Call with the lock held.
  var isCancelled: Bool { node == nil }

  /// Ends the subscription; later changes are not delivered. Calling it again does nothing.
  public func cancel() {
    let root = home.lockRoot()
    // `node` moves to this local and is released at the end, after the lock.
    guard let node = node.take() else {
      root.lock.unlock()
      return
    }
    // The thread's context is only needed when someone is delivering this domain right now.
    let context = root.drainers.isEmpty ? nil : ThreadContext.current
    let deliveringHere = context.map { root.drainers.contains($0.id) } ?? false
    let unused = node.dropHandle()
    // Unlocks; the sink's closure dies after that, outside the lock.
    let wasRegistered = node.removeSinkAndUnlock(id: id, root: root)
    if wasRegistered && deliveringHere, let context {
      context.cancelledDuringDelivery.append(ObjectIdentifier(node))
    }
    if unused { node.detachAfterDelivery() }
  }

  /// Keeps this subscription alive as long as `collection` holds it.
  public func store(in collection: inout [Subscription]) {
    collection.append(self)
  }

  /// Keeps this subscription alive as long as `set` holds it.
  public func store(in set: inout Set<Subscription>) {
    set.insert(self)
  }
}

extension Subscription: Hashable {
  /// Subscriptions are equal only to themselves.
  public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }

  /// Hashes the subscription's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
