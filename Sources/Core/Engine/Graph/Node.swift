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
  /// What kind of node this is (see `Traits`). Set before the node is shared.
  @exclusivity(unchecked) @usableFromInline final var traits: Traits
  /// Whether `originReference` is an origin of the node's own (a name's, from
  /// `setName(_:)`), retained for the node. Lock. (Beside `traits`, in the bytes before
  /// `rank` that would be padding.)
  @exclusivity(unchecked) @usableFromInline final var ownsOrigin = false
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
  {
    didSet {
      inputsElements = inputs.withUnsafeBufferPointer { $0.unmanagedElements }
    }
  }
  /// Where `inputs` keeps its elements, as `downstreamElements` is for `downstream`: what a
  /// computed property's delivered run compares its reads with, with no reference counting.
  /// Role.
  @exclusivity(unchecked) @usableFromInline final var inputsElements:
    UnsafePointer<Unmanaged<AnyNode>>?
  /// Where the node stands in the graph: attached, suspended, waiting for its attachment,
  /// completed (see `Linkage`). Role; written under the lock.
  @exclusivity(unchecked) @usableFromInline final var linkage: Linkage = .attached
  /// When a suspended node was suspended (see `Suspension`). Lock.
  @exclusivity(unchecked) @usableFromInline final var suspension = Suspension()
  /// How many properties, subscriptions and attached downstream nodes keep this node attached
  /// (its keep-alive handles): at zero, a node that is not a source is detached. Lock.
  @exclusivity(unchecked) @usableFromInline final var keepAliveCount = 0
  /// How many changes the node has committed: what a derived value that depends on which
  /// value it last saw (`flatMapLatest`) compares. Role; written under the lock.
  @exclusivity(unchecked) @usableFromInline package final var changeCount: UInt64 = 0
  /// The node's marks in the delivery under way (see `DeliveryMarks`). Role.
  @exclusivity(unchecked) @usableFromInline package final var marks = DeliveryMarks()
  /// The next node of the same rank in the delivery's work list. Role.
  @exclusivity(unchecked) final var nextQueued: Unmanaged<AnyNode>?
  /// The branch this node's last relink parked (see Engine+Parking.swift): an input it let go,
  /// kept attached until the node's next relink or detach decides what becomes of it. Retained
  /// by hand, so that a node that parks nothing (a relay) has nothing more to release in its
  /// `deinit`, and so that the release happens outside the lock. Role; written under the lock.
  @exclusivity(unchecked) final var parkedBranch: Unmanaged<AnyNode>?
  /// For a source: its writes' sequence numbers (see `WriteLog`).
  @exclusivity(unchecked) @usableFromInline final var writes = WriteLog()
  /// For a derived node: what its `pulled` cache holds (see `PullCache`). Lock.
  @exclusivity(unchecked) @usableFromInline final var pullCache = PullCache()
  #if DEBUG
    /// How many times the node's inputs were moved (`Engine.relink`), for tests. Role.
    @exclusivity(unchecked) package final var relinkCount = 0
  #endif

  /// For a computed property's node, whether its computation was seen reading `@Observable`
  /// objects (see `Engine.recomputeSegment`). Role; set before the node is shared.
  @exclusivity(unchecked) @usableFromInline final var observableReads =
    ObservableReadsState.notComputed
  /// The next computed property's node in the thread's list of those run untracked in the
  /// segment under way (`ThreadContext.Computation.segmentDelivered`). Role.
  @exclusivity(unchecked) @usableFromInline final var nextSegmentRun: Unmanaged<AnyNode>?

  /// What the node is, where it was made and what it is called, for messages and traces (see
  /// ``NodeOrigin``): set when the node is made, before it is shared; ``setName(_:)`` replaces
  /// it. Lock, once the node is shared (read it with `lockedOrigin`).
  ///
  /// Held unretained (`originReference`): a node is made with a shared origin, which the
  /// process-wide table keeps for ever (see `NodeOrigin.made`), so making and freeing a node
  /// counts no reference for it. An origin of its own (a name's, `ownsOrigin`) is retained
  /// once, by `setName(_:)`, and released by the node's `deinit` (`releaseOwnOrigin()`).
  @inlinable package final var origin: NodeOrigin? { originReference?.takeUnretainedValue() }

  /// Releases an origin of the node's own, from the `deinit` of the node's class.
  @inlinable @inline(__always)
  final func releaseOwnOrigin() {
    if _slowPath(ownsOrigin) { releaseOwnOriginNow() }
  }

  @usableFromInline
  final func releaseOwnOriginNow() { originReference?.release() }

  /// Sets `origin` to a shared origin (`NodeOrigin.made`, `.kind`), before the node is shared.
  @inlinable
  package final func setOrigin(_ origin: __shared NodeOrigin?) {
    assert(origin.map { $0.serial != 0 } ?? true, "a node is made with a shared origin")
    originReference = origin.map { Unmanaged.passUnretained($0) }
  }

  /// `origin`, unretained unless `ownsOrigin`. Lock, once the node is shared.
  @exclusivity(unchecked) @usableFromInline final var originReference: Unmanaged<NodeOrigin>?

  /// The node's steps of a delivery, specialized for its value type.
  /// A `var` only so that a node's `deinit` can move its closures out (see `DerivedNode`).
  @exclusivity(unchecked) @usableFromInline final var steps: NodeSteps

  @inlinable
  init(
    home: Domain, isSource: Bool, holdsPlainData: Bool, carriesEvents: Bool, steps: NodeSteps
  ) {
    self.home = home
    var traits: Traits = []
    if isSource { traits.insert(.source) }
    if holdsPlainData { traits.insert(.holdsPlainData) }
    if carriesEvents { traits.insert(.carriesEvents) }
    self.traits = traits
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
    Unmanaged.passUnretained(home)._withUnsafeGuaranteedRef { $0.withRootLocked(body) }
  }

  /// `withRootLocked(_:)` with `body` inlined (see `Domain.withRootLockedInlined(_:)`).
  @inlinable @inline(__always)
  package final func withRootLockedInlined<Result>(_ body: (Domain) -> Result) -> Result {
    Unmanaged.passUnretained(home)._withUnsafeGuaranteedRef { $0.withRootLockedInlined(body) }
  }

  // MARK: Overridden by value-carrying subclasses

  #if DEBUG
    /// The invariants of the node's value and sinks (see `Engine.checkInvariants`). Lock.
    func checkValueInvariants() {}

    /// The invariants of the node's catching-up records, `root` being its root, after a
    /// delivery (see `Engine.checkInvariants`). Lock.
    func checkCatchUpInvariants(_ root: Domain) {}
  #endif

  /// Whether the `pulled` value was computed in the outermost pull this thread is running,
  /// cacheable or not, at the stamp of the pull reading it now or a later one of the same
  /// domain. Lock.
  ///
  /// A pull nested in another (a computation that reads a node made during the read, as a
  /// `flatMapLatest` its new inner property) begins at a later count of the domain when writes
  /// landed since the one around it began, and caches what it computes as of that count. A
  /// value the outer pull computed at its own count may lack those writes: computed from it,
  /// the nested pull's values would be cached as of a count whose writes they lack, and a
  /// reader that wrote in between, whose own pull began before that count, cannot replace
  /// them (a pull never replaces a value cached at a later stamp) and returns one (see
  /// `DerivedNode.pullOneSpecialized`). So a nested pull computes such a value again.
  @inlinable
  final func wasPulledInThisPull() -> Bool {
    pullCache.inPull != 0
      && ThreadContext.withCurrent { $0.computation.holdsPulledValue(pullCache) }
  }

  #if DEBUG
    /// Notes that the computation under way on this thread takes this node's pulled value,
    /// cached at `pullCache.stamp` (see `ThreadContext.Computation.oldestTakenStamp`); `root`
    /// is the node's root domain, locked. Lock.
    ///
    /// Only a node still in the pull's root domain, with a value cached by a pull over that
    /// domain, counts: a node split off since into a domain whose inputs took no write keeps
    /// a value current there at an older count of the domain it left.
    @usableFromInline
    final func notePulledValueTaken(in root: Domain) {
      guard let stampRoot = pullCache.stampRoot, stampRoot == ObjectIdentifier(root) else {
        return
      }
      ThreadContext.withCurrent { context in
        guard stampRoot == context.computation.pullRoot else { return }
        context.computation.oldestTakenStamp = min(
          context.computation.oldestTakenStamp, pullCache.stamp)
      }
    }

    /// Stops unless a value this node's pull computed at `stamp` was computed from no pulled
    /// value cached at an older stamp (`oldestTaken`): cached as of `stamp`, it must hold
    /// every write that stamp counts (see `wasPulledInThisPull()`).
    @usableFromInline
    final func checkTakenValues(_ oldestTaken: UInt64, computedAt stamp: UInt64) {
      Engine.check(
        oldestTaken >= stamp,
        "\(describedForMisuse), computed by a pull at stamp \(stamp), took a value cached at "
          + "stamp \(oldestTaken), which may lack writes the pull's stamp counts")
    }
  #endif

  /// Whether the pulled value (`pullCache.hasValue`) is current: computed at the write count of
  /// `root`, the node's root domain (locked), or in the pull this thread is running over that
  /// domain. Lock.
  ///
  /// The first test needs no domain: the count of the domain a node's inputs are in never
  /// goes back (a join keeps the larger count, a part split off takes its root's) and moves
  /// at each of their writes, so a value cached at the count it has now missed none. The
  /// second compares a stamp the pull read earlier, which holds only for a value cached at
  /// that count of that same domain (`PullCache.stampRoot`): a node joined to it since, from
  /// a domain whose count happened to be the same number, holds a value of another count.
  ///
  /// The first test inlined, the second out of line: the first answers nearly every read.
  @inlinable @inline(__always)
  final func isPulledValueCurrent(in root: Domain) -> Bool {
    if pullCache.stamp == root.writeCount { return true }
    return isPulledValueCurrentInThisPull(root)
  }

  /// The second test of `isPulledValueCurrent(in:)`. Lock.
  @usableFromInline @inline(never)
  final func isPulledValueCurrentInThisPull(_ root: Domain) -> Bool {
    ThreadContext.withCurrent {
      $0.computation.pullStamp == pullCache.stamp
        && $0.computation.pullRoot == ObjectIdentifier(root)
        && pullCache.stampRoot == ObjectIdentifier(root)
    }
  }

  /// How many subscriptions the node has, the cancelled ones left out. Lock.
  var liveSinkCount: Int { 0 }

  /// Whether the node has subscriptions (cancelled ones too) or completion handlers: whom its
  /// completion tells. Reads no field whose type depends on the value's. Lock.
  var hasListeners: Bool { false }

  /// Drops the node's catching-up records that are caught up (see `Domain.catchingUpNodes`),
  /// adding the sources they held to `retired`, to be let go outside the lock; returns whether
  /// any are left. Lock.
  func dropCaughtUpRecords(retiring retired: inout [AnyNode]) -> Bool { false }

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
  /// Attaches a derived node whose attachment waits in its domain's queue
  /// (`awaitsAttachment`), now; the queued attachment then finds it done. Role.
  func attachAwaited() {}
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
  @usableFromInline var recompute: @Sendable (AnyNode) -> Bool
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

extension UnsafeBufferPointer where Element: AnyObject {
  /// The objects (nodes, domains) as words, `Unmanaged`: read through this, an object is
  /// borrowed, with no reference counting, while whoever holds the array keeps it alive and
  /// unchanged.
  @inlinable
  var unmanagedElements: UnsafePointer<Unmanaged<Element>>? {
    UnsafeRawPointer(baseAddress)?.assumingMemoryBound(to: Unmanaged<Element>.self)
  }
}
