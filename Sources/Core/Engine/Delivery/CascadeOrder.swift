// One order for a thread's sink-made writes, across domains (rule 4: queued, first in, first
// out).
//
// A sink's write into the domain being delivered is queued there. A sink's write into a domain
// nobody delivers takes that domain's role and is delivered at once: nothing written before it
// waits, so no order is broken, and `bind(to:)`, a view's binding or any sink that writes into
// another view model pays nothing more. But once this thread's deliveries have queued a change
// (`RoleState.cascade`), a later write into another domain, delivered at once (a free one) or
// queued in another of this thread's domains (a batch's), would come before that change; so
// would a batch committed then, delivered at once in the domains it claims. A computed
// property that switches into that domain when the change is delivered would then read the
// later write together with the earlier one, and its sinks would skip a state. So that write
// (or batch) joins its domain to the one that holds the queued change, for as long as it
// waits, and is queued behind the change, in order; the join is let go once the write is
// delivered, and the domains split again once quiet. (A domain another thread delivers is not
// joined: what it delivers has no order with this thread's writes.)

extension ThreadContext {
  /// Notes that this thread queued a change in `root` (locked): if it drains `root` (the change
  /// comes from one of its own deliveries), `root` is where its sinks' later writes keep their
  /// order, unless an earlier domain already is.
  @usableFromInline
  func noteQueued(in root: Domain) {
    guard role.held > 0, role.cascade == nil, root.role.drainers.contains(id) else { return }
    role.cascade = root
  }

  /// Forgets the domain of the cascade once this thread gives up the role of `root` (or of
  /// `domain`, which forwards to it), or holds none any more.
  @inline(__always)
  func leftRole(of root: Domain, drained domain: Domain) {
    guard let cascade = role.cascade else { return }
    if role.held == 0 || cascade === root || cascade === domain { role.cascade = nil }
  }
}

extension SourceNode {
  /// `write(_:lockedRoot:_:cause:)` (or `emit`) when this thread's deliveries queued a change
  /// (`RoleState.cascade`): if it is in a domain other than this source's, `root` (locked),
  /// `root` is free or this thread's, and the change still waits, joins this source's domain
  /// to the change's, so that `write` (called with the root locked, which it unlocks) queues
  /// the write behind it, then queues the join's release after the write. Otherwise just calls
  /// `write`.
  @usableFromInline
  final func writeInCascadeOrder(
    unlocking root: Domain, _ context: ThreadContext, _ write: (Domain) -> Void
  ) {
    guard context.role.cascade !== root, root.role.isFreeOrDrained(by: context.id) else {
      write(root)
      return
    }
    root.lock.unlock()
    guard let cascade = Engine.domainKeepingOrder(context, apartFrom: root) else {
      write(home.lockRoot())
      return
    }
    Engine.joining(CollectionOfOne<AnyNode>(self), to: cascade) {
      let joined = home.lockRoot()
      // This thread is a drainer of `cascade`'s tree, which now holds this source: the write
      // is queued, never delivered here.
      #if DEBUG
        Engine.check(!joined.role.isFree, "a write joined to a cascade found its role free")
      #endif
      write(joined)
    }
  }
}

extension ThreadContext {
  /// `commitBatch()` while this thread's deliveries queued a change (`RoleState.cascade`):
  /// if it still waits, joins the domains the batch wrote that are free or this thread's to
  /// the change's, so that the batch is queued behind it, not delivered at once, and queues
  /// the join's release after the batch's changes. Otherwise commits as usual.
  func commitBatchInCascadeOrder() {
    var written = Array(batch.touched)
    for event in batch.events where !written.contains(where: { $0 === event.source }) {
      written.append(event.source)
    }
    written.removeAll { node in
      let root = node.home.lockRoot()
      let busyWithOthers = !root.role.isFreeOrDrained(by: id)
      root.lock.unlock()
      return busyWithOthers
    }
    guard !written.isEmpty, let cascade = Engine.domainKeepingOrder(self, apartFrom: nil) else {
      commitBatchNow()
      return
    }
    Engine.joining(written, to: cascade) { commitBatchNow() }
  }
}

extension Engine {
  /// Joins the domains of `nodes` to `cascade`'s (a span counted like a node's), runs
  /// `queue`, which queues their changes there, this thread being a drainer of it, then queues
  /// the join's release behind them: it is let go once they are delivered.
  static func joining<Nodes: Collection<AnyNode> & Sendable>(
    _ nodes: Nodes, to cascade: Domain, _ queue: () -> Void
  ) {
    _ = Domain.join(from: cascade, nodes)
    queue()
    let root = cascade.lockRoot()
    let sent = SendableDomain(domain: cascade)
    root.queue.append(.task({ Domain.releaseSpan(from: sent.domain, nodes) }, depth: 0))
    root.lock.unlock()
  }

  /// The domain that holds a change this thread's deliveries queued, which a write it makes
  /// now into `root`'s tree must follow: `RoleState.cascade`, while this thread drains it,
  /// something is queued there, and it is not of `root`'s tree (any, for `nil`). Forgets a
  /// cascade whose role this thread no longer holds.
  static func domainKeepingOrder(_ context: ThreadContext, apartFrom root: Domain?) -> Domain? {
    guard let cascade = context.role.cascade else { return nil }
    let cascadeRoot = cascade.lockRoot()
    let drains = cascadeRoot.role.drainers.contains(context.id)
    let waits = drains && !cascadeRoot.queue.isEmpty && cascadeRoot !== root
    cascadeRoot.lock.unlock()
    if !drains { context.role.cascade = nil }
    return waits ? cascade : nil
  }
}
