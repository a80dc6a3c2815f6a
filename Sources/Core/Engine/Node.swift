/// A vertex of the change-propagation graph: a source, or a value derived from other nodes.
///
/// Fields are guarded in one of two ways, named on each:
/// - **lock**: the root domain's lock;
/// - **role**: the domain's drainer role (see ``Domain``). The role holder also takes the lock
///   when it writes a role field that other threads read under the lock.
@usableFromInline
package class AnyNode: @unchecked Sendable {
  // Safe: see the guarding rules above; every field names its guard. Those rules make every
  // access exclusive, hence `@exclusivity(unchecked)` (dynamic checks would dominate the cost).

  /// The domain this node was created in; follow `forward` to reach the current root.
  @usableFromInline package final let home: Domain
  /// Whether this node is written directly (a source) rather than computed.
  @usableFromInline final let isSource: Bool
  /// Topological height: sources are 0, a derived node is one more than its highest input.
  /// Role; written under the lock.
  @exclusivity(unchecked) @usableFromInline final var rank = 0
  /// Nodes computed from this one. Role; written under the lock.
  @exclusivity(unchecked) @usableFromInline final var downstream: ContiguousArray<AnyNode> = [] {
    didSet {
      downstreamElements = downstream.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
  }
  /// Where `downstream` keeps its elements, for a delivery to read them as raw words, without
  /// the reference counting that borrowing the array from a class would cost. Refreshed on every
  /// change of `downstream`; the array is never shared while it changes, so its storage stays
  /// where this points until the next change. Role.
  @exclusivity(unchecked) final var downstreamElements: UnsafeRawPointer?
  /// Nodes this one is computed from. Role; written under the lock.
  @exclusivity(unchecked) @usableFromInline package final var inputs: ContiguousArray<AnyNode> = []
  /// Whether `downstream` of every input lists this node. Role; written under the lock.
  @exclusivity(unchecked) @usableFromInline final var isAttached = true
  /// Whether this node will never change again. Role; written under the lock.
  @exclusivity(unchecked) @usableFromInline final var isCompleted = false
  /// Properties, subscriptions and attached downstream nodes that keep this node attached.
  /// Lock.
  @exclusivity(unchecked) @usableFromInline final var handles = 0
  /// How many changes the node has committed: what a derived value that depends on which
  /// value it last saw (`flatMapLatest`) compares. Role; written under the lock.
  @exclusivity(unchecked) @usableFromInline package final var changeCount: UInt64 = 0
  /// Whether the node's value changed in the event being delivered. Role.
  @exclusivity(unchecked) package final var isChanged = false
  /// Whether the node waits in the delivery's work list. Role.
  @exclusivity(unchecked) final var isQueued = false
  /// The next node of the same rank in the delivery's work list. Role.
  @exclusivity(unchecked) final var nextQueued: Unmanaged<AnyNode>?
  /// Whether `commitStaged()` captured sinks for `deliverCommitted(_:)` to run. Role.
  @exclusivity(unchecked) @usableFromInline final var hasCommittedSinks = false
  /// For a source: how many writes it has taken (the newest write's sequence number), and the
  /// sequence numbers of the write staged for delivery and of the write delivered. A new
  /// subscriber that starts from a newer value than the delivered one compares these (see
  /// `catchingUp`). `writeSeq` and `deliveredSeq`: lock; `stagedSeq`: role.
  @exclusivity(unchecked) @usableFromInline final var writeSeq: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline final var stagedSeq: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline final var deliveredSeq: UInt64 = 0

  /// Whether a derived node's `pulled` cache holds a value, computed at `pulledStamp`. Lock.
  @exclusivity(unchecked) final var hasPulledValue = false
  @exclusivity(unchecked) final var pulledStamp: UInt64 = 0

  /// Whether the value is plain data (`_isPOD`): nothing to release after a commit, so a node
  /// with no sinks to run needs no delivery step at all.
  @usableFromInline final let holdsPlainData: Bool

  /// Whether the node carries events rather than state (see `ValueNode.eventSteps`): its value
  /// is an optional that holds the event only while it is delivered, and every event is
  /// delivered on its own, also inside a batch (rule 10: state coalesces, events do not).
  @usableFromInline final let carriesEvents: Bool

  /// The node's steps of a delivery, specialized for its value type.
  @usableFromInline final let steps: NodeSteps

  @usableFromInline
  init(
    home: Domain, isSource: Bool, holdsPlainData: Bool, carriesEvents: Bool, steps: NodeSteps
  ) {
    self.home = home
    self.isSource = isSource
    self.holdsPlainData = holdsPlainData
    self.carriesEvents = carriesEvents
    self.steps = steps
  }

  /// Whether the delivery step has anything to do after the commit: sinks to run, or a
  /// replaced value to release. Role.
  @inline(__always)
  final var needsDelivery: Bool { hasCommittedSinks || !holdsPlainData }

  /// Locks the root of this node's domain and runs `body` with it, borrowed rather than
  /// retained (the node keeps its home domain alive, and every domain keeps the one it was
  /// merged into); `body` unlocks it.
  @inlinable @inline(__always)
  package final func withRootLocked<Result>(_ body: (Domain) -> Result) -> Result {
    Unmanaged.passUnretained(home)._withUnsafeGuaranteedRef { domain in
      domain.lock.lock()
      if _fastPath(!domain.isForwarded) { return body(domain) }
      return body(domain.lockForwardedRoot())
    }
  }

  // MARK: Overridden by value-carrying subclasses

  #if DEBUG
    /// The invariants of the node's value and sinks (see `Engine.checkInvariants`). Lock.
    func checkValueInvariants() {}
  #endif

  /// Whether reading the node's current value needs no computing: a source, a settled value,
  /// or a pulled value that is current. Lock (of `root`, this node's root domain).
  func isPullCurrent(_ root: Domain) -> Bool { true }
  /// Computes the node's current value from its inputs' current values (which are current
  /// themselves, see `Engine.pullInOrder`) and caches it at `stamp`. Outside the lock.
  func pullOne(at stamp: UInt64, _ context: ThreadContext) {}

  /// Moves the latest value to the pending queue (a batch committing). Lock.
  @usableFromInline func enqueueLatest() {}
  /// Takes the latest value as the value to deliver (a batch committing while the role is
  /// free, so nothing is pending). Role, under the lock.
  @usableFromInline func stageLatest() {}
  /// Takes the oldest pending value as the value to deliver. Role, under the lock.
  @usableFromInline func stagePending() {}
  /// Recomputes the committed value from the inputs' committed values, without notifying.
  /// Role, outside the lock.
  @usableFromInline func refresh() {}
  /// Ends every subscription and returns the completion handlers to run; the caller releases
  /// them, and `released`, after unlocking. Role, under the lock.
  @usableFromInline func takeCompletionHandlers(
    released: inout [Any]
  ) -> [@Sendable () -> Void] { [] }
}

/// The steps of delivering one event at one node, as closures built where the node's value
/// type is known: node initializers are inlinable, so each closure is specialized for the
/// caller's types and a delivery runs no generic value witnesses and no virtual dispatch.
/// A node built in unspecialized code gets the generic versions, which behave the same.
@usableFromInline
struct NodeSteps: Sendable {
  /// Recomputes a derived node's value for the event being delivered; returns whether it
  /// changed (a source returns `false`). Role, outside the lock.
  @usableFromInline let recompute: @Sendable (AnyNode) -> Bool
  /// Publishes the staged value and captures the sinks to run. Role, under the lock.
  @usableFromInline let commit: @Sendable (AnyNode) -> Void
  /// Runs the sinks captured by `commit`. Role, outside the lock.
  @usableFromInline let deliver: @Sendable (AnyNode, ThreadContext) -> Void
  /// Forgets a cancelled subscription, then unlocks the root domain given; returns whether
  /// the subscription was still registered. Entered with that lock held.
  ///
  /// What was removed is released after unlocking (see `ValueNode`: no user value dies under
  /// the lock); doing both here keeps it in typed locals, with nothing boxed to hand back.
  @usableFromInline let removeSinkAndUnlock: @Sendable (AnyNode, UInt64, Domain) -> Bool

  @inlinable
  init(
    recompute: @escaping @Sendable (AnyNode) -> Bool,
    commit: @escaping @Sendable (AnyNode) -> Void,
    deliver: @escaping @Sendable (AnyNode, ThreadContext) -> Void,
    removeSinkAndUnlock: @escaping @Sendable (AnyNode, UInt64, Domain) -> Bool
  ) {
    self.recompute = recompute
    self.commit = commit
    self.deliver = deliver
    self.removeSinkAndUnlock = removeSinkAndUnlock
  }
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
struct SinkEntry<Value>: Sendable {
  @usableFromInline let id: UInt64
  @usableFromInline let sink: @Sendable (Value) -> Void

  @usableFromInline
  init(id: UInt64, sink: @escaping @Sendable (Value) -> Void) {
    self.id = id
    self.sink = sink
  }
}

extension SinkEntry {
  /// Whether both entries hold the same identifier and the very same closure (function and
  /// context), compared as stored: a function passed on as a generic value would be wrapped.
  @usableFromInline
  func isIdentical(to other: SinkEntry) -> Bool {
    withUnsafeBytes(of: self) { mine in
      withUnsafeBytes(of: other) { theirs in mine.elementsEqual(theirs) }
    }
  }
}

/// A node that carries a value of type `Value`.
///
/// **No user value dies under the lock.** A value, a sink closure or a node may hold anything,
/// including a `Property` or `SubscriptionToken` of the same domain whose `deinit` takes the lock
/// again. So whatever the engine overwrites or removes while holding the lock is moved out and
/// released after unlocking. Between events `staged` holds a second reference to `delivered`,
/// so overwriting `staged` under the lock never ends a value's life; the value it replaced is
/// let go in `deliverCommitted(_:)`, outside the lock.
@usableFromInline
package class ValueNode<Value>: AnyNode, @unchecked Sendable {
  // Safe: as for AnyNode; each field names its guard.

  /// The value every sink has been (or is being) given. Written by the role under the lock;
  /// read by the role freely and by others under the lock.
  @exclusivity(unchecked) @usableFromInline final var delivered: Value
  /// The value computed for the event under delivery, until committed (`hasStaged`). Role.
  @exclusivity(unchecked) @usableFromInline final var staged: Value
  @exclusivity(unchecked) @usableFromInline final var hasStaged = false
  /// Subscriptions, in subscription order. Lock.
  ///
  /// A subscription cancelled from the middle leaves a tombstone (identifier 0, a closure that
  /// does nothing) rather than shifting the rest; the last one is removed outright, with the
  /// tombstones before it. `deadSinks` counts the tombstones and `firstLiveSink` skips the
  /// leading ones, so cancelling in subscription order or in reverse costs O(1) each, and the
  /// array is compacted once tombstones are the majority.
  @exclusivity(unchecked) @usableFromInline final var sinks: ContiguousArray<SinkEntry<Value>> = []
  @exclusivity(unchecked) @usableFromInline final var deadSinks = 0
  @exclusivity(unchecked) @usableFromInline final var firstLiveSink = 0
  /// Handlers to run when the node completes. Lock.
  @exclusivity(unchecked) @usableFromInline final var completions:
    [(id: UInt64, handler: @Sendable () -> Void)] =
      []
  /// Sinks captured at commit for the delivery under way. Role.
  @exclusivity(unchecked) @usableFromInline final var committedSinks:
    ContiguousArray<SinkEntry<Value>>?
  /// Subscriptions that started from a value newer than the one delivered so far, with the
  /// sources it was computed from and their write sequence numbers then: until every one of
  /// them has delivered that write, a change delivered to such a subscription would be older
  /// than what it already has, so it skips it (and the change that brings exactly its first
  /// state, a repeat). The sources are this node's upstream, kept alive by it. Lock.
  @exclusivity(unchecked) @usableFromInline final var catchingUp:
    [(id: UInt64, upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)])] = []
  /// Whether `catchingUp` has entries: the delivery paths test this flag. Lock.
  @exclusivity(unchecked) @usableFromInline final var hasCatchingUpSinks = false

  @usableFromInline
  init(home: Domain, value: Value, isSource: Bool, carriesEvents: Bool = false, steps: NodeSteps) {
    delivered = value
    staged = value
    // An event node always has a delivery step: it forgets the event after delivering it.
    super.init(
      home: home, isSource: isSource, holdsPlainData: _isPOD(Value.self) && !carriesEvents,
      carriesEvents: carriesEvents, steps: steps)
  }

  /// The steps of a node of this type, with `recompute` supplied by the kind of node.
  @inlinable
  static func steps(recompute: @escaping @Sendable (AnyNode) -> Bool) -> NodeSteps {
    NodeSteps(
      recompute: recompute,
      commit: { unsafeDowncast($0, to: ValueNode<Value>.self).commitStaged() },
      deliver: { unsafeDowncast($0, to: ValueNode<Value>.self).deliverCommitted($1) },
      removeSinkAndUnlock: {
        unsafeDowncast($0, to: ValueNode<Value>.self).removeSinkAndUnlock(id: $1, root: $2)
      })
  }

  /// The steps of an event node (one whose value is `nil` at rest): after its sinks ran, the
  /// delivery step lets the event go, so no event outlives its delivery.
  @inlinable
  static func eventSteps<Event>(recompute: @escaping @Sendable (AnyNode) -> Bool) -> NodeSteps
  where Value == Event? {
    NodeSteps(
      recompute: recompute,
      commit: { unsafeDowncast($0, to: ValueNode<Value>.self).commitStaged() },
      deliver: {
        let node = unsafeDowncast($0, to: ValueNode<Value>.self)
        node.deliverCommitted($1)
        node.forgetEvent()
      },
      removeSinkAndUnlock: {
        unsafeDowncast($0, to: ValueNode<Value>.self).removeSinkAndUnlock(id: $1, root: $2)
      })
  }

  /// Lets the event just delivered go: the node rests at `nil` again. Role.
  @usableFromInline
  final func forgetEvent<Event>() where Value == Event? {
    var event: Value = nil
    staged = nil
    let root = home.lockRoot()
    swap(&delivered, &event)
    root.lock.unlock()
    withExtendedLifetime(event) {}  // the event dies here, outside the lock
  }

  /// The value for a derived node computing in `mode`.
  @inlinable
  package final func read(_ mode: _ReadMode) -> Value {
    switch mode {
    case .delivery: return hasStaged ? staged : delivered
    case .latest: return currentValue()
    }
  }

  /// `read(mode)` of a node held unretained, as a static function: inside a parameter-pack
  /// expansion a closure is not specialized, a call to this is.
  @inlinable @inline(__always)
  package static func read(_ node: Unmanaged<ValueNode<Value>>, _ mode: _ReadMode) -> Value {
    node._withUnsafeGuaranteedRef { $0.read(mode) }
  }

  /// `changeCount`, counting the change staged for the event under delivery, if any. Role.
  @inlinable
  package final var changeCountIncludingStaged: UInt64 {
    hasStaged ? changeCount &+ 1 : changeCount
  }

  /// Sets the value computed for the event under delivery. Role.
  @inlinable @inline(__always)
  package final func stage(_ value: Value) {
    staged = value
    hasStaged = true
  }

  /// The node's current value: the newest write for a source, or the derived value computed
  /// from the newest writes. Safe from any thread.
  ///
  /// - Complexity: One uncontended lock, unless a derived value must be recomputed because a
  ///   write is still on its way to it.
  @inlinable
  package final func currentValue() -> Value {
    let domain = home
    domain.lock.lock()
    if _fastPath(!domain.isForwarded) {
      if isSource {
        let value = unsafeDowncast(self, to: SourceNode<Value>.self).latest
        domain.lock.unlock()
        return value
      }
      if isAttached && domain.unsettled == 0 {
        let value = delivered
        domain.lock.unlock()
        return value
      }
    }
    domain.lock.unlock()
    return pull()
  }

  /// `currentValue()` the slow way: through a forwarded domain, or by recomputing.
  @usableFromInline
  func pull() -> Value { fatalError("ValueNode subclasses override pull()") }

  /// Publishes the staged value and captures the sinks to run. Role, under the lock, after the
  /// sources of the change have committed.
  @inlinable @inline(__always)
  final func commitStaged() {
    if hasStaged {
      if _isPOD(Value.self) {
        // Nothing to release: a plain copy, and `staged` already equals `delivered`.
        delivered = staged
      } else {
        // The previous value moves to `staged`, to be released outside the lock.
        swap(&delivered, &staged)
      }
      hasStaged = false
      changeCount &+= 1
      if isSource { deliveredSeq = stagedSeq }
    }
    if !sinks.isEmpty {
      committedSinks = _slowPath(hasCatchingUpSinks) ? sinksCaughtUp() : sinks
      hasCommittedSinks = true
    }
  }

  /// The sinks to give the change being committed: all but the subscriptions still catching
  /// up (see `catchingUp`), whose records go once every source upstream has delivered the
  /// write they started from. A change that brings exactly that state is skipped too. Lock,
  /// after the change's sources have committed.
  @usableFromInline
  final func sinksCaughtUp() -> ContiguousArray<SinkEntry<Value>> {
    var skipped: [UInt64] = []
    catchingUp.removeAll { record in
      var caughtUp = true
      var same = true
      for (source, seq) in record.upstream {
        let delivered = source._withUnsafeGuaranteedRef { $0.deliveredSeq }
        if delivered < seq { caughtUp = false }
        if delivered != seq { same = false }
      }
      if !caughtUp || same { skipped.append(record.id) }
      return caughtUp
    }
    hasCatchingUpSinks = !catchingUp.isEmpty
    if skipped.isEmpty { return sinks }
    return sinks.filter { !skipped.contains($0.id) }
  }

  /// Runs the sinks captured by `commitStaged()`. Role, outside the lock.
  @inlinable
  final func deliverCommitted(_ context: ThreadContext) {
    // Lets the previous value go, outside the lock; a plain value has nothing to let go, and
    // `commitStaged()` left `staged` equal to `delivered` already.
    if !_isPOD(Value.self) { staged = delivered }
    guard hasCommittedSinks else { return }
    hasCommittedSinks = false
    // Taken as an optional: no empty array to make, which unspecialized code would have to
    // look up the element type's metadata for.
    let entries = committedSinks
    committedSinks = nil
    if let entries { run(entries, with: delivered, context) }
  }

  /// Runs `entries` in order with `value`, skipping any cancelled on this thread meanwhile.
  @inlinable
  final func run(
    _ entries: ContiguousArray<SinkEntry<Value>>, with value: Value, _ context: ThreadContext
  ) {
    context.beginScope()
    for entry in entries {
      if _slowPath(!context.cancelledDuringDelivery.isEmpty), wasCancelled(entry, context) {
        continue
      }
      entry.sink(value)
    }
    context.endScope()
  }

  /// Whether the sink of `entry` was cancelled on this thread since the delivery captured it.
  ///
  /// An identifier is a token's address, which a new token may take once the cancelled one is
  /// gone; a sink registered since then under the same identifier has its own closure, so
  /// both are compared.
  @usableFromInline
  final func wasCancelled(_ entry: SinkEntry<Value>, _ context: ThreadContext) -> Bool {
    guard context.cancelledDuringDelivery.contains(ObjectIdentifier(self)) else { return false }
    let root = home.lockRoot()
    defer { root.lock.unlock() }
    return !sinks.contains { $0.isIdentical(to: entry) }
  }

  override final func takeCompletionHandlers(
    released: inout [Any]
  ) -> [@Sendable () -> Void] {
    isCompleted = true
    let handlers = completions.map(\.handler)
    released.append(completions)
    released.append(sinks)
    completions = []
    sinks = []
    deadSinks = 0
    firstLiveSink = 0
    return handlers
  }

  #if DEBUG
    override final func checkValueInvariants() {
      Engine.check(!hasStaged, "a node left with a staged value between events")
      Engine.check(!hasCommittedSinks && committedSinks == nil, "captured sinks left over")
      let tombstones = sinks.filter { $0.id == 0 }.count
      Engine.check(deadSinks == tombstones, "deadSinks \(deadSinks), tombstones \(tombstones)")
      Engine.check(sinks.last.map { $0.id != 0 } ?? true, "a tombstone last among the sinks")
      Engine.check(
        firstLiveSink <= sinks.count && sinks[..<firstLiveSink].allSatisfy { $0.id == 0 },
        "firstLiveSink \(firstLiveSink) skips a live sink")
      Engine.check(hasCatchingUpSinks == !catchingUp.isEmpty, "hasCatchingUpSinks out of date")
    }
  #endif

  /// `NodeSteps.removeSinkAndUnlock` for this node.
  @inlinable
  final func removeSinkAndUnlock(id: UInt64, root: Domain) -> Bool {
    var completion: (@Sendable () -> Void)?
    if !completions.isEmpty, let index = completions.firstIndex(where: { $0.id == id }) {
      completion = completions.remove(at: index).handler
    }
    guard let index = sinkIndex(of: id) else {
      root.lock.unlock()
      return false
    }
    var removed: SinkEntry<Value>
    if _fastPath(index == sinks.count - 1) {
      removed = sinks.removeLast()
      if _slowPath(deadSinks > 0) { dropTrailingTombstones() }
    } else {
      removed = SinkEntry(id: 0, sink: { _ in })
      swap(&removed, &sinks[index])
      buryTombstone(at: index)
    }
    root.lock.unlock()
    // They die here, outside the lock.
    withExtendedLifetime(removed) {}
    withExtendedLifetime(completion) {}
    return true
  }

  /// The index of the sink `id`, searching from both ends (subscriptions are mostly cancelled
  /// newest first, or in subscription order).
  @inlinable
  final func sinkIndex(of id: UInt64) -> Int? {
    var front = firstLiveSink
    var back = sinks.count - 1
    while front <= back {
      if sinks[back].id == id { return back }
      if sinks[front].id == id { return front }
      front += 1
      back -= 1
    }
    return nil
  }

  /// Counts the tombstone just left at `index`, skips it if it leads, and compacts the array
  /// once tombstones are the majority. Lock.
  @usableFromInline
  final func buryTombstone(at index: Int) {
    deadSinks += 1
    if index == firstLiveSink {
      while firstLiveSink < sinks.count && sinks[firstLiveSink].id == 0 { firstLiveSink += 1 }
    }
    if deadSinks > 8 && deadSinks * 2 > sinks.count {
      sinks.removeAll { $0.id == 0 }
      deadSinks = 0
      firstLiveSink = 0
    }
  }

  /// Removes the tombstones left at the end after the last sink was removed. Lock.
  @usableFromInline
  final func dropTrailingTombstones() {
    while let last = sinks.last, last.id == 0 {
      sinks.removeLast()
      deadSinks -= 1
    }
    if sinks.isEmpty { firstLiveSink = 0 }
    firstLiveSink = min(firstLiveSink, sinks.count)
  }
}
