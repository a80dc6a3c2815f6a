/// A vertex of the change-propagation graph: a source, or a value derived from other nodes.
///
/// Fields are guarded in one of two ways, named on each:
/// - **lock**: the root domain's lock;
/// - **role**: the domain's drainer role (see ``Domain``). The role holder also takes the lock
///   when it writes a role field that other threads read under the lock.
@usableFromInline
package class AnyNode: @unchecked Sendable {
  // Safe: see the guarding rules above; every field names its guard.

  /// The domain this node was created in; follow `forward` to reach the current root.
  @usableFromInline package final let home: Domain
  /// Topological height: sources are 0, a derived node is one more than its highest input.
  /// Role; written under the lock.
  @usableFromInline final var rank = 0
  /// Nodes computed from this one. Role; written under the lock.
  @usableFromInline final var downstream: ContiguousArray<AnyNode> = []
  /// Nodes this one is computed from. Role; written under the lock.
  package final var inputs: ContiguousArray<AnyNode> = []
  /// Whether `downstream` of every input lists this node. Role; written under the lock.
  @usableFromInline final var isAttached = true
  /// Whether this node will never change again. Role; written under the lock.
  @usableFromInline final var isCompleted = false
  /// Properties, subscriptions and attached downstream nodes that keep this node attached.
  /// Lock.
  final var handles = 0
  /// Whether the node's value changed in the event being delivered. Role.
  package final var isChanged = false
  final var isQueued = false

  init(home: Domain) {
    self.home = home
  }

  /// Whether this node is a source (written directly rather than computed).
  var isSource: Bool { false }

  // MARK: Overridden by value-carrying subclasses

  /// Recomputes the node's value for the event being delivered; returns whether it changed.
  /// Role, outside the lock.
  func recompute(_ context: ThreadContext) -> Bool { false }
  /// Publishes the staged value and captures the sinks to run. Role, under the lock.
  func commit() {}
  /// Runs the sinks captured by `commit()`. Role, outside the lock.
  func deliverCommitted(_ context: ThreadContext) {}
  /// Moves the latest value to the pending queue (a batch committing). Lock.
  func enqueueLatest() {}
  /// Takes the oldest pending value as the value to deliver. Role, under the lock.
  func stagePending() {}
  /// Recomputes the committed value from the inputs' committed values, without notifying.
  /// Role, outside the lock.
  func refresh() {}
  /// Ends every subscription and returns the completion handlers to run. Role, under the lock.
  func takeCompletionHandlers() -> [@Sendable () -> Void] { [] }
  /// Forgets a cancelled subscription; returns whether it was still registered. Lock.
  func removeSink(id: UInt64) -> Bool { false }
}

/// How a derived node reads its inputs.
public enum _ReadMode: Sendable {
  /// The values being delivered: what every sink of the current change sees.
  case delivery
  /// The newest values written, including those still waiting to be delivered.
  case latest
}

/// A subscription's callback, in subscription order.
@usableFromInline
struct SinkEntry<Value> {
  @usableFromInline let id: UInt64
  @usableFromInline let sink: @Sendable (Value) -> Void
}

extension SinkEntry: Sendable {}

/// A node that carries a value of type `Value`.
@usableFromInline
package class ValueNode<Value>: AnyNode, @unchecked Sendable {
  // Safe: as for AnyNode; each field names its guard.

  /// The value every sink has been (or is being) given. Written by the role under the lock;
  /// read by the role freely and by others under the lock.
  @usableFromInline final var delivered: Value
  /// The value computed for the event under delivery, until committed. Role.
  @usableFromInline final var staged: Value?
  /// Subscriptions, in subscription order. Lock.
  @usableFromInline final var sinks: ContiguousArray<SinkEntry<Value>> = []
  /// Handlers to run when the node completes. Lock.
  final var completions: [(id: UInt64, handler: @Sendable () -> Void)] = []
  /// Source of subscription identifiers. Lock.
  final var nextSinkID: UInt64 = 0
  /// Sinks captured at commit for the delivery under way. Role.
  @usableFromInline final var committedSinks: ContiguousArray<SinkEntry<Value>> = []

  init(home: Domain, value: Value) {
    delivered = value
    super.init(home: home)
  }

  /// The value for a derived node computing in `mode`.
  @inlinable
  package final func read(_ mode: _ReadMode) -> Value {
    switch mode {
    case .delivery: return staged ?? delivered
    case .latest: return currentValue()
    }
  }

  /// The node's current value: the newest write for a source, or the derived value computed
  /// from the newest writes. Safe from any thread.
  @usableFromInline package func currentValue() -> Value { fatalError("subclass must override") }

  override final func commit() {
    if let value = staged.take() { delivered = value }
    committedSinks = sinks
  }

  override final func deliverCommitted(_ context: ThreadContext) {
    let value = delivered
    let entries = committedSinks
    committedSinks = []
    run(entries, with: value, context)
  }

  /// Runs `entries` in order with `value`, skipping any cancelled on this thread meanwhile.
  @inlinable
  final func run(
    _ entries: ContiguousArray<SinkEntry<Value>>, with value: Value, _ context: ThreadContext
  ) {
    context.beginScope()
    for entry in entries {
      if !context.cancelledDuringDelivery.isEmpty,
        context.cancelledDuringDelivery.contains(ObjectIdentifier(self)),
        isCancelledDuringDelivery(entry.id, context)
      {
        continue
      }
      entry.sink(value)
    }
    context.endScope()
  }

  @usableFromInline
  final func isCancelledDuringDelivery(_ id: UInt64, _ context: ThreadContext) -> Bool {
    lockedSinkIsGone(id)
  }

  /// Whether a sink was cancelled since the delivery captured it.
  final func lockedSinkIsGone(_ id: UInt64) -> Bool {
    let root = home.lockRoot()
    defer { root.lock.unlock() }
    return !sinks.contains { $0.id == id }
  }

  override final func takeCompletionHandlers() -> [@Sendable () -> Void] {
    isCompleted = true
    let handlers = completions.map(\.handler)
    completions = []
    sinks = []
    return handlers
  }

  override final func removeSink(id: UInt64) -> Bool {
    completions.removeAll { $0.id == id }
    guard let index = sinks.firstIndex(where: { $0.id == id }) else { return false }
    sinks.remove(at: index)
    return true
  }
}
