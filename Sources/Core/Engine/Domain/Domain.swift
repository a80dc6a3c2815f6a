/// A group of connected nodes that share one lock and one delivery queue.
///
/// Every source starts in a domain of its own; a derived node that reads sources from several
/// domains merges them (union–find, the absorbed domain forwarding to the survivor). So two
/// view models that never meet never share a lock, and nodes that do meet are delivered by one
/// queue in one order, which is what makes derived values glitch-free.
///
/// **Domains follow the live graph.** Each merge edge (a domain and the one it forwards to)
/// counts the nodes whose links cross it (`joinCount`, see `Domain+Split.swift`); once the last
/// of them is released or relinked away, the edge is cut while the domain is quiet, and the
/// two sides are domains of their own again. So sources that were once read together stop
/// sharing a lock and a queue when nothing joins them any more.
///
/// **The drainer role.** At most one thread at a time delivers a domain's changes (runs its
/// transforms and sinks) and changes its topology. A writer that finds the role free takes it and
/// delivers; one that finds it taken queues its change for the current drainer and returns. The
/// role is handed over under the lock, so every piece of state the role owns is race-free.
/// The only time two threads drain one domain is just after a merge of two busy domains: each
/// finishes the event it was delivering (on disjoint nodes) and the first to finish leaves.
/// The role's states and transitions are one type, `DrainerRole` (`role`).
///
/// **Bounded waits, bounded queue.** A drainer that finishes its own change and finds work
/// queued by others delivers what was queued by then, and meanwhile the domain is *closing*: a
/// thread that holds no drainer role anywhere and queues a change now (or finds
/// `Engine.handOverLimit` changes queued) waits for its turn instead of returning. Once the
/// snapshot is delivered the drainer hands the role to the first waiting thread, which delivers
/// the rest, its own change included, and returns. So no call is captured by another thread's
/// stream of writes, and the queue holds at most the limit plus one change per waiting thread
/// and per thread that queued from inside a delivery (which may not wait: a drainer that waited
/// could deadlock with another).
///
/// Domains form no lasting reference cycle: a merged domain keeps the survivor alive through
/// `forward`, and the survivor does not keep the domains merged into it, so a released graph
/// frees every domain and lock it used. (A root holds the domains whose edge fell to zero,
/// `splitCandidates`, only until it cuts them off, which it does once quiet.)
@usableFromInline
package final class Domain: ManagedBuffer<DomainFields, UInt64> {
  // Thread-safe, though not `Sendable` (see `SendableDomain`): every mutable field is guarded by
  // `lock`, except the ones documented as owned by the drainer role, which only the current
  // drainer touches.
  //
  // One allocation: the fields are the buffer's header (`DomainFields`), reached through a
  // pointer (no dynamic exclusivity checks, which would dominate the write path's cost; the
  // guarding rules above make every access exclusive), and the lock's primitive is in the
  // buffer's elements, at a stable address, as it must be. A separate block for the primitive
  // cost every relay an allocation and a free, about 190 instructions of its 2,290.
  //
  // Layout: a write reads or stores every field from `isForwarded` to `hasCommitWork`, and the
  // lock's primitive after them, so those sit between fields a write never touches (the
  // object's header and the fields of merging and splitting before them, and the elements'
  // bytes after the primitive): from offset 64 of the object to 60 bytes before its end, each
  // 64-byte cache line a write touches lies inside the object wherever `malloc` puts it
  // (16-byte aligned), and shares nothing with a neighbour. Without that, a neighbour that
  // another thread writes on every write of its own (the next relay's sinks array, whose
  // reference count each delivery takes) sent the line back and forth, and two relays written
  // from two threads took longer than one thread writing both.

  /// How many 8-byte elements follow the fields: the lock's primitive in the first, a debug
  /// build's record of its owner at `Lock.ownerWordOffset` bytes from it, and bytes enough
  /// after it to keep its cache line inside the object (see above).
  @usableFromInline static let elementCount = 8

  deinit {
    #if DEBUG
      // A domain freed while it forwards (nothing refers to it any more: its nodes are gone)
      // is recorded freed, for the check that walks its parent's debug list of children. It
      // may be freed with any lock held, so it takes none of the domains'.
      FreedDomains.shared.recordFreed(
        forward == nil ? nil : debugSerial, listing: debugChildren.values.map(\.serial))
    #endif
    Lock.Handle(primitive: lockPrimitive).deinitialize()
  }

  /// The fields, for the accessors below.
  @inlinable @inline(__always)
  var fields: UnsafeMutablePointer<DomainFields> { withUnsafeMutablePointerToHeader { $0 } }

  /// Where the lock's primitive is.
  @inlinable @inline(__always)
  var lockPrimitive: UnsafeMutablePointer<Lock.Handle.Primitive> {
    UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { $0 })
      .assumingMemoryBound(to: Lock.Handle.Primitive.self)
  }

  /// The domain's lock, whose primitive lives in the domain itself (see above).
  @inlinable @inline(__always)
  var lock: Lock.Handle { Lock.Handle(primitive: lockPrimitive) }

  /// The domain this one was merged into. Written holding both this domain's lock and its root's
  /// (a merge locks the two roots; a split, the root and then this domain): so either lock
  /// guards a read, and under the root's lock every chain of its tree stands still.
  @inlinable var forward: Domain? {
    get { fields.pointee.forward }
    set {
      fields.pointee.forward = newValue
      fields.pointee.isForwarded = newValue != nil
    }
  }
  /// How many domains forward to this one, directly or not (the size of its tree, less one):
  /// union by size keeps the forwarding chains short. A split subtracts what it cuts off; a
  /// domain freed while it forwards (its nodes gone) stays counted, an overestimate that only
  /// weighs the choice. Guarded by the root's lock.
  var mergedCount: Int {
    get { fields.pointee.mergedCount }
    set { fields.pointee.mergedCount = newValue }
  }
  /// Derived nodes that have catching-up records (see `ValueNode.catchingUp`), checked at the
  /// end of every delivery's commit: a record is caught up by the delivery of the writes it
  /// waits for, and a node that delivery did not change (a `removeDuplicates`, a switch to an
  /// equal value) does not commit, so it would keep the record, and take the next change for
  /// the repeat of its subscriber's first value. Guarded by `lock`.
  @inlinable var catchingUpNodes: [AnyNode] {
    _read { yield fields.pointee.catchingUpNodes }
    _modify {
      yield &fields.pointee.catchingUpNodes
      fields.pointee.updateHasCommitWork()
    }
  }
  /// Whether `forward` is set: the hot paths test this flag, which costs no reference counting
  /// where testing the optional reference may retain it. Guarded by `lock`.
  @inlinable var isForwarded: Bool { fields.pointee.isForwarded }
  /// How many writes this domain (and every domain merged into it) has taken; a new derived
  /// node compares it at creation and at attachment to know whether its first value is stale.
  /// Guarded by `lock`.
  @inlinable var writeCount: UInt64 {
    get { fields.pointee.writeCount }
    set { fields.pointee.writeCount = newValue }
  }
  /// Source writes whose effect on derived nodes has not been committed yet; while non-zero,
  /// derived values are read by pulling from the sources. Guarded by `lock`.
  @inlinable var unsettled: Int {
    get { fields.pointee.unsettled }
    set { fields.pointee.unsettled = newValue }
  }
  /// Changes waiting for the drainer, first in, first out; guarded by `lock`.
  @inlinable var queue: RingBuffer<QueuedChange> {
    _read { yield fields.pointee.queue }
    _modify { yield &fields.pointee.queue }
  }
  /// The drainer role: who delivers, who waits for a turn (see "Bounded waits" above), whether
  /// the drainer is closing (see `DrainerRole`). Guarded by `lock`.
  @inlinable var role: DrainerRole {
    _read { yield fields.pointee.role }
    _modify { yield &fields.pointee.role }
  }
  /// Whether `catchingUpNodes` or `splitCandidates` has entries: the one flag every commit
  /// tests for both. Guarded by `lock`.
  @inlinable var hasCommitWork: Bool { fields.pointee.hasCommitWork }

  // The fields of splitting (see `Domain+Split.swift`): a write never touches them, and they
  // are written only by joins, releases and splits, under the lock.

  /// For a domain that forwards: how many nodes' links cross the edge to `forward` (their span,
  /// see `Domain.join`). Guarded by the root's lock.
  var joinCount: Int {
    get { fields.pointee.joinCount }
    set { fields.pointee.joinCount = newValue }
  }
  /// The walk over spans that last visited this domain (see `Domain.countSpan`), so that a
  /// node whose links share an edge counts it once. Guarded by the root's lock.
  var spanMark: UInt64 {
    get { fields.pointee.spanMark }
    set { fields.pointee.spanMark = newValue }
  }
  /// For a root: domains of its tree whose edge no link crosses any more, to be cut off once
  /// the root is quiet (`splitZeroEdges`). Guarded by `lock`.
  var splitCandidates: [Domain] {
    _read { yield fields.pointee.splitCandidates }
    _modify {
      yield &fields.pointee.splitCandidates
      fields.pointee.updateHasCommitWork()
    }
  }

  #if DEBUG
    /// The domains that forward to this one directly, and the spans whose top this is, so
    /// that the debug checks can count every edge's links (`checkJoinCounts`). Root's lock.
    var debugChildren: [ObjectIdentifier: ChildDomain] {
      _read { yield fields.pointee.debugChildren }
      _modify { yield &fields.pointee.debugChildren }
    }
    var debugSpans: [[UInt]: (members: [Unmanaged<Domain>], count: Int)] {
      _read { yield fields.pointee.debugSpans }
      _modify { yield &fields.pointee.debugSpans }
    }
    /// This domain in the debug lists of children (see `ChildDomain`).
    var debugSerial: UInt64 { fields.pointee.debugSerial }
  #endif

  /// Locks the root of this domain and returns it; the caller unlocks `root.lock`.
  @inlinable @inline(__always)
  package func lockRoot() -> Domain {
    lock.lock()
    if _fastPath(!isForwarded) { return self }
    return lockForwardedRoot()
  }

  /// The root of this domain's tree, whose lock the caller holds: under it the tree's chains
  /// stand still, so they are followed without locking.
  var rootWhileLocked: Domain {
    var domain = Unmanaged.passUnretained(self)
    while let next = domain._withUnsafeGuaranteedRef({ $0.forwardUnretained }) { domain = next }
    let root = domain.takeUnretainedValue()
    root.assertLockedRoot()
    return root
  }

  /// Locks the root of this domain and runs `body` with it, borrowed rather than retained as
  /// `lockRoot()`'s result is (the caller keeps this domain alive, and every domain keeps the
  /// one it was merged into); `body` unlocks it.
  @inlinable @inline(__always)
  package func withRootLocked<Result>(_ body: (Domain) -> Result) -> Result {
    lock.lock()
    if _fastPath(!isForwarded) { return body(self) }
    return body(lockForwardedRoot())
  }

  /// `withRootLocked(_:)` with `body` called from one place, so that it is inlined into the
  /// caller: called from two (the root's and a forwarded domain's), it is compiled as a
  /// function of its own, a call and its register saves. For the hottest sections only (a
  /// read of a cached value, a pull's test): inlined everywhere, the bodies made their callers
  /// too large to be inlined in turn, and cost more than they saved.
  @inlinable @inline(__always)
  package func withRootLockedInlined<Result>(_ body: (Domain) -> Result) -> Result {
    lock.lock()
    let root =
      _fastPath(!isForwarded) ? Unmanaged.passUnretained(self) : lockForwardedRootUnretained()
    return root._withUnsafeGuaranteedRef(body)
  }

  /// `lockForwardedRoot()`, unretained: the root is kept alive by the forwarding chain from
  /// this domain (every domain keeps the one it was merged into), which the caller keeps.
  @usableFromInline @inline(never)
  func lockForwardedRootUnretained() -> Unmanaged<Domain> {
    Unmanaged.passUnretained(lockForwardedRoot())
  }

  /// The write count and whether every write has been delivered, read together.
  @usableFromInline
  func writeStamp() -> (writes: UInt64, settled: Bool) {
    withRootLocked { root in
      defer { root.lock.unlock() }
      return (root.writeCount, root.unsettled == 0)
    }
  }

  /// `lockRoot()` for a domain that was merged into another, entered with this domain's lock
  /// held: follow the forwarding chain one lock at a time, then check, holding the root found,
  /// that this domain still reaches it.
  ///
  /// A split may cut the chain behind the walk: having read `forward` and let this domain go,
  /// the walk can reach a root this domain no longer belongs to. A split of an edge of that
  /// root's tree needs the root's lock, so once it is held the chains of its tree stand still,
  /// and no domain outside the tree forwards into it (a merge attaches roots only): if the chain
  /// from here, read again, reaches the root, this domain is in its tree. The check locks each
  /// domain of the chain with `tryLock()` while holding the root: a domain cut off may be a root
  /// that another thread holds while it waits for this root's lock (a merge), so waiting for
  /// it could deadlock; a busy one makes the walk start again.
  ///
  /// That second walk is needed only when a split happened somewhere in the process during the
  /// first (`SplitCount`, read before and after: two atomic loads).
  ///
  /// - Complexity: A walk of the chain (its length: the domain's depth in the tree), two if a
  ///   split happened meanwhile.
  @usableFromInline
  func lockForwardedRoot() -> Domain {
    while true {
      // No split since this count was read (most of the time: splits are rare) means none cut
      // the chain, and no second walk is needed.
      let splits = SplitCount.load()
      let root = lockChainEnd()
      if SplitCount.load() == splits || root === self || reaches(lockedRoot: root) { return root }
      root.lock.unlock()
      lock.lock()
    }
  }

  /// `lockRoot()` without waiting, for a caller that holds another tree's root, where waiting
  /// could deadlock (see `reaches(_:)`): `nil` when a domain on the way stays busy, the
  /// caller's root among them (this domain is then of the caller's tree).
  func tryLockRoot() -> Domain? {
    var tries = 0
    while !lock.tryLock() {
      tries += 1
      if tries == 64 { return nil }
    }
    let splits = SplitCount.load()
    var domain = self
    while let next = domain.forward {
      domain.lock.unlock()
      domain = next
      guard domain.lock.tryLock() else { return nil }
    }
    // As in `lockForwardedRoot()`: a split may have cut the chain behind the walk.
    if SplitCount.load() == splits || domain === self || reaches(lockedRoot: domain) {
      return domain
    }
    domain.lock.unlock()
    return nil
  }

  /// Follows the forwarding chain from this domain, whose lock the caller holds, one lock at a
  /// time, and returns the domain at its end, locked.
  @inline(__always)
  private func lockChainEnd() -> Domain {
    var domain = self
    while let next = domain.forward {
      domain.lock.unlock()
      domain = next
      domain.lock.lock()
    }
    return domain
  }

  /// `reaches(_:)` for one root, out of line: the rare second walk of `lockForwardedRoot()`.
  @inline(never)
  private func reaches(lockedRoot root: Domain) -> Bool {
    reaches { $0 === root }
  }

  /// Whether `context` is the only kind of drainer here: every drainer is this thread.
  /// Call with the lock held.
  func isDrained(onlyBy context: ThreadContext) -> Bool {
    assertLockedRoot()
    return role.isDrained(onlyBy: context.id)
  }

  /// Queues a change for the drainer; returns whether the caller must wait for its turn
  /// (`Engine.waitForTurn(in:_:)`, once it has unlocked). Call with the lock held and the role
  /// taken by another thread or by this one further up the stack.
  ///
  /// A change queued by a thread that is itself delivering is one step further down a cascade
  /// than the change that thread is delivering; a cascade longer than `Engine.reentrancyLimit`
  /// stops the program.
  @usableFromInline
  func enqueue(_ change: QueuedChange, from context: ThreadContext) -> Bool {
    assertLockedRoot()
    queue.append(change)
    return role.queued(by: context, holdsRoles: context.role.held != 0, queueCount: queue.count)
      == .waitsForTurn
  }

  /// Whether a writer that may wait must do so: the drainer is delivering what others queued,
  /// or the queue is full. Lock.
  @usableFromInline var isBusyWithOthers: Bool { role.isBusyWithOthers(queueCount: queue.count) }

  /// The cascade depth of a change queued now by `context` (see `enqueue(_:from:)`). Stops the
  /// program, with the lock released, when the cascade runs away.
  @usableFromInline
  func cascadeDepth(of context: ThreadContext) -> Int32 {
    assertLockedRoot()
    guard context.role.held > 0 else { return 0 }
    let depth = context.role.eventDepth + 1
    if _slowPath(Int(depth) > Engine.reentrancyLimit) {
      lock.unlock()
      Engine.misuse(
        """
        Runaway re-entrancy: a chain of more than \(Engine.reentrancyLimit) writes, each made by \
        a sink while the previous one was delivered, so the changes never settle. A sink that \
        writes must stop writing once the value it wants is reached: compare before you accept, \
        or use removeDuplicates() upstream of the sink.
        """)
    }
    return depth
  }
}

/// A domain for a `@Sendable` closure to capture. `Domain` is thread-safe (its guarding rules
/// say how), but as a `ManagedBuffer`, which the standard library marks never `Sendable`, it
/// cannot say so itself.
struct SendableDomain: @unchecked Sendable {
  // Safe: see `Domain`'s guarding rules.
  let domain: Domain
}

/// A domain's fields, in the order of its layout (see `Domain`): those a write never touches
/// first, then those every write does. Guarded as `Domain`'s accessors say.
@usableFromInline
package struct DomainFields {
  #if DEBUG
    var debugChildren: [ObjectIdentifier: ChildDomain] = [:]
    var debugSpans: [[UInt]: (members: [Unmanaged<Domain>], count: Int)] = [:]
    let debugSerial = FreedDomains.shared.nextSerial()
  #endif
  @usableFromInline var forward: Domain?
  var mergedCount = 0
  @usableFromInline var catchingUpNodes: [AnyNode] = []
  var joinCount = 0
  var spanMark: UInt64 = 0
  @usableFromInline var splitCandidates: [Domain] = []
  // What every write touches, from offset 64 of the object.
  @usableFromInline var isForwarded = false
  @usableFromInline var writeCount: UInt64 = 0
  @usableFromInline var unsettled = 0
  @usableFromInline var queue = RingBuffer<QueuedChange>()
  @usableFromInline var role = DrainerRole()
  @usableFromInline var hasCommitWork = false

  @usableFromInline init() {}

  @inlinable
  mutating func updateHasCommitWork() {
    hasCommitWork = !catchingUpNodes.isEmpty || !splitCandidates.isEmpty
  }
}

/// A change queued in a domain for its drainer (not a `Signal` event): a write waiting to be
/// delivered, a node to detach, or a task that must run in delivery order.
@usableFromInline
enum QueuedChange {
  /// A write whose value waits in the source's pending queue; `closesEvent` marks the last
  /// source of a batch (or the only one of a plain write), where delivery may begin.
  /// `depth` is the change's place in a cascade of sink-made writes (0: made outside any
  /// delivery).
  case write(AnyNode, closesEvent: Bool, depth: Int32)
  /// A node to detach (`Engine.detach(_:)`) between events (see
  /// `Engine.detachAfterDelivery(_:)`): a case of its own, not a `task`, because a computed
  /// property whose branch flips lets one go on every write, and the task's closure was an
  /// allocation each time.
  case detach(AnyNode)
  /// A topology change, subscription or completion that must happen in delivery order.
  case task(@Sendable () -> Void, depth: Int32)
}

/// The engine's tunables and entry points that are not tied to one node.
public enum Engine {
  /// How long a cascade of sink-made writes may grow before the engine stops the program
  /// instead of looping forever: a write made by a sink while a change was delivered is one
  /// step further than that change, and a chain of more than this many steps is runaway.
  ///
  /// A sink that writes a value it observes (directly or through derived values) is legal and
  /// common; a sink that never stops doing so is a bug that would otherwise hang the program.
  /// Independent writers, however many and however long they write, never count: only a chain
  /// of writes each caused by the delivery of the one before.
  public static let reentrancyLimit = 100_000

  /// How many changes may wait for another thread's delivery of one domain before a writer
  /// that could wait does so (see ``Engine`` and the contract's rule on bounded waits).
  ///
  /// A thread that calls `accept(_:)` while another thread delivers the same values usually
  /// queues its change and returns at once. Under sustained load (this many changes waiting, or
  /// the delivering thread busy with the changes others queued) it waits for its turn instead,
  /// then delivers the rest of the queue, its own change included.
  public static let handOverLimit = 1_024

  /// Stops the program for a misuse, naming it: unlike `precondition`, whose message release
  /// builds drop, the message is printed in every build.
  @usableFromInline
  package static func misuse(_ message: String, file: StaticString = #file, line: UInt = #line)
    -> Never
  {
    fatalError(message, file: file, line: line)
  }
}
