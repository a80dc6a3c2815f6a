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
  // Safe: `isCancelled` is only read and written under the lock of the node's domain.
  let node: AnyNode
  let id: UInt64
  @exclusivity(unchecked) var isCancelled = false

  init(node: AnyNode, id: UInt64) {
    self.node = node
    self.id = id
  }

  deinit {
    cancel()
  }

  /// Ends the subscription; later changes are not delivered. Calling it again does nothing.
  public func cancel() {
    let context = ThreadContext.current
    let root = node.home.lockRoot()
    guard !isCancelled else {
      root.lock.unlock()
      return
    }
    isCancelled = true
    let wasRegistered = node.removeSink(id: id)
    let deliveringHere = root.drainers.contains(context.id)
    root.lock.unlock()
    if wasRegistered && deliveringHere {
      context.cancelledDuringDelivery.append(ObjectIdentifier(node))
    }
    node.releaseHandle()
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
