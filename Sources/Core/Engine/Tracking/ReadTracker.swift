/// The record of what one tracked computation read: a computed property's computation, or a
/// view's pass (see `ReadWatcher`). While it runs, the thread's context points at it, and every
/// read of a property's `value` on that thread is recorded here (`Property.value` asks
/// `ValueNode.trackedValue()`).
///
/// The reads are compared, in order, with the dependencies the previous run recorded: when
/// they are the same nodes in the same order (the common case) nothing is allocated or looked
/// up, and `dependenciesChanged` stays `false`. Otherwise `recorded` holds the new ones, each
/// once, in first-read order.
///
/// Trackers are reused: each thread keeps a pool (`ThreadContext.acquireTracker`), and a run
/// nested in another (a computed property read inside another's computation) takes the next.
@usableFromInline
package final class ReadTracker {
  /// How reads return values: `.delivery` while the owning node recomputes for a delivered
  /// change (inputs of its domain give the value being delivered), `.latest` otherwise.
  @exclusivity(unchecked) @usableFromInline package var mode: _ReadMode = .latest
  /// The dependencies of the previous run, in the order read, as words read with no
  /// reference counting: the array they are the elements of is kept alive and unchanged
  /// during the run by its owner (a delivered node's `inputs`, which only its own run's end
  /// changes) or by `expectedStorage`.
  @exclusivity(unchecked) @usableFromInline var expectedElements: UnsafePointer<Unmanaged<AnyNode>>?
  @exclusivity(unchecked) @usableFromInline var expectedCount = 0
  /// The array `expectedElements` points into, when nothing else keeps it alive.
  @exclusivity(unchecked) var expectedStorage: ContiguousArray<AnyNode> = []
  /// How many reads matched `expected`, in order, before the first that did not.
  @exclusivity(unchecked) @usableFromInline var matched = 0
  /// Whether every read so far matched `expected` in order.
  @exclusivity(unchecked) @usableFromInline var inOrder = true
  /// The dependencies recorded once a read left the expected order; `expected`'s prefix first.
  @exclusivity(unchecked) package var recorded: ContiguousArray<AnyNode> = []
  /// Whether `recorded`'s storage may be shared with an array handed out (`sharedRecorded()`;
  /// a relink's inputs), which `clear()` then replaces rather than empties in place.
  @exclusivity(unchecked) var recordedMayBeShared = false
  /// The places in `recorded` by identity, once it is long enough for a linear search to cost
  /// more.
  @exclusivity(unchecked) var recordedIndex: [ObjectIdentifier: Int] = [:]
  /// For each entry of `recorded`, in a delivered run only: whether the run reads it at its value
  /// being delivered (1: it is of the delivered domain; see `recordUnexpected(_:)`), or not
  /// (0), or not asked yet (-1). A node read again gets the answer its first read got, with
  /// no lock taken: `unstable`'s computation reads two nodes twenty times each, and asking
  /// every time was half of what its delivery cost.
  @exclusivity(unchecked) var readsDelivered: ContiguousArray<Int8> = []
  /// The last two nodes `recordUnexpected(_:)` answered for in this run, by address: a run
  /// that left the expected order and reads the same few nodes again and again (`unstable`
  /// reads two nodes twenty times each) gets its answer with two compares, where finding the
  /// node in `recorded` and its answer in `readsDelivered` cost about ninety instructions a
  /// read. Valid only once the run left the order: `leaveOrder()` clears them, and every node
  /// in `recorded` is held, so no address is reused meanwhile.
  @exclusivity(unchecked) @usableFromInline var recentRead: UnsafeMutableRawPointer?
  @exclusivity(unchecked) @usableFromInline var earlierRead: UnsafeMutableRawPointer?
  /// `recentRead` and `earlierRead` as words when their answer is "at its value being
  /// delivered", 0 otherwise (and while the run keeps the expected order; `clear()` zeroes
  /// them): what `read(_:)` compares first, so that a node of the delivered domain read again
  /// costs two compares and the read of its value. So a node `recordUnexpected(_:)` finds
  /// among the two is one whose answer was "not delivered".
  @exclusivity(unchecked) @usableFromInline var recentDeliveredRead: UInt = 0
  @exclusivity(unchecked) @usableFromInline var earlierDeliveredRead: UInt = 0
  /// What a newly recorded dependency had taken when it was read (see `AnyNode.version`):
  /// whoever attaches the run's owner to it compares, and recomputes or invalidates when a
  /// write landed between the read and the attachment.
  @exclusivity(unchecked) package var versions: [(node: AnyNode, version: UInt64)] = []
  /// Whether a delivered run inside a batch read a node of another domain that follows no
  /// delivery (suspended, being computed again, or awaiting its attachment) at its value
  /// computed on demand, from the newest writes: the batch's writes there may be in it,
  /// though they are delivered only when the batch ends. Once the run's owner is linked to
  /// that node, which attaches it computed from what its inputs delivered, the run is
  /// computed again (see `ThreadContext.relinkDelivered`).
  @exclusivity(unchecked) @usableFromInline var readUndelivered = false
  /// The node recomputed for a delivered change when `mode` is `.delivery`: a new input of
  /// another domain than this node's is read at its newest value (it has no value being
  /// delivered here).
  @exclusivity(unchecked) @usableFromInline unowned(unsafe) var deliveredNode: AnyNode?
  /// The object whose pass is tracked, if any: reading its own invalidating properties is not
  /// a dependency (they invalidate it already).
  @exclusivity(unchecked) package weak var owner: AnyObject?
  /// Whether `owner` was set: clearing a weak reference that is already `nil` costs a call.
  @exclusivity(unchecked) var hasOwner = false
  /// The nodes recorded as new, each holding a handle the tracker took at the read: a node
  /// made inside the run and released at its end (`Property { ... }.value`) stays in the graph
  /// until the run's owner is linked to it. Whoever links takes them (`takeHeld()`) and
  /// releases them once linked; a run that links nothing releases them at its end. Sources are
  /// left out: they are never detached (`recorded` keeps them in memory meanwhile).
  @exclusivity(unchecked) var held: [AnyNode] = []
  /// The tracker active when this one's run began, active again at its end.
  @exclusivity(unchecked) @usableFromInline unowned(unsafe) var outer: ReadTracker?

  init(mode: _ReadMode = .latest) { self.mode = mode }

  /// Whether the tracker runs a delivered computation (`ThreadContext.deliveryTracker` only).
  @exclusivity(unchecked) @usableFromInline var isInUse = false

  /// Whether the run read other nodes than the previous run, or in another order.
  package var dependenciesChanged: Bool { !inOrder || matched != expectedCount }

  /// Readies the tracker, clean from its last run (see `clear()`), for a run that expects
  /// the `count` dependencies at `elements`, which the caller keeps alive during the run.
  @inline(__always)
  func reset(
    mode: _ReadMode, elements: UnsafePointer<Unmanaged<AnyNode>>?, count: Int,
    deliveredNode: AnyNode?
  ) {
    #if DEBUG
      assertClean()
    #endif
    self.mode = mode
    expectedElements = elements
    expectedCount = count
    self.deliveredNode = deliveredNode
    matched = 0
    inOrder = true
  }

  /// Stops unless the tracker is clean from its last run (see `clear()`): a run that begins
  /// on a tracker still holding another run's reads would take them for its own. Debug only.
  #if DEBUG
    @usableFromInline
    func assertClean(_ function: StaticString = #function, line: UInt = #line) {
      if !recorded.isEmpty || !held.isEmpty || !versions.isEmpty || readUndelivered
        || recentDeliveredRead != 0 || earlierDeliveredRead != 0
      {
        Engine.ruleBroken(
          "\(function) began a run on a tracker that still holds another run's reads",
          line: line)
      }
    }
  #endif

  /// The nodes whose keep-alive handles the run holds (see `held`), for the caller to release
  /// once the run's owner is linked to them.
  package func takeHeld() -> [AnyNode] {
    defer { held = [] }
    return held
  }

  /// Sets `owner` for a run, touching the weak reference only when it changes from or to a
  /// value (clearing one already `nil` costs a call).
  @inline(__always)
  func setOwner(_ owner: AnyObject?) {
    guard owner != nil || hasOwner else { return }
    self.owner = owner
    hasOwner = owner != nil
  }

  /// Releases the keep-alive handles the run holds (see `held`), once its owner is linked to
  /// them, keeping the array's storage for the next run: emptied an element at a time, which
  /// for the one or two a relink holds costs less than `removeAll(keepingCapacity:)`.
  func releaseHeld() {
    while let node = held.popLast() { node.releaseHandle() }
  }

  /// Lets go of the nodes the run referred to, so that a pooled tracker keeps none alive and
  /// the next run finds it clean.
  func clear() {
    if !held.isEmpty { releaseHeld() }
    expectedElements = nil
    expectedCount = 0
    if !expectedStorage.isEmpty { expectedStorage = [] }
    // Emptied in place when its storage is the tracker's alone (the common case of a
    // delivered run whose branch flipped): `removeAll(keepingCapacity:)` would go through the
    // generic range replacement, about two hundred instructions for two or three reads. A
    // shared storage (a first run's inputs) is replaced: removed in place, its elements would
    // be copied first.
    if recordedMayBeShared {
      recordedMayBeShared = false
      recorded.removeAll(keepingCapacity: true)
    } else if !recorded.isEmpty {
      recorded.removeAllKeepingStorage()
    }
    if !readsDelivered.isEmpty { readsDelivered.removeAllKeepingStorage() }
    if !versions.isEmpty { versions.removeAllKeepingStorage() }
    readUndelivered = false
    recentDeliveredRead = 0
    earlierDeliveredRead = 0
    if !recordedIndex.isEmpty { recordedIndex.removeAll(keepingCapacity: true) }
  }

  /// `recorded`, to be kept beyond the run (a node's inputs, a watcher's dependencies): its
  /// storage is shared from now on.
  func sharedRecorded() -> ContiguousArray<AnyNode> {
    recordedMayBeShared = true
    return recorded
  }

  /// Whether the run needs `clear()`: it read something unexpected or stopped early, or
  /// holds an array of expected dependencies.
  var needsClearing: Bool { !inOrder || !expectedStorage.isEmpty || !held.isEmpty }

  /// Whether `node` is one of the last two nodes the run's unexpected reads named, read at
  /// its value being delivered: recorded already, so a read of it needs nothing recorded.
  @inlinable @inline(__always)
  func readsDeliveredAgain(_ node: AnyNode) -> Bool {
    let address = UInt(bitPattern: Unmanaged.passUnretained(node).toOpaque())
    return address == recentDeliveredRead || address == earlierDeliveredRead
  }

  /// Records a read of `node` and returns its value for this run.
  @inlinable
  func read<Value>(_ node: ValueNode<Value>) -> Value {
    // Read again, recently, at its value being delivered (`a.value + a.value`, a loop over
    // the same few properties): recorded already.
    if readsDeliveredAgain(node) { return node.read(.delivery) }
    if matchesExpected(node) {
      // An expected node is an input of the run's owner, so it is in the delivered domain.
      return mode == .delivery ? node.read(.delivery) : node.read(.latest)
    }
    let readsDelivered = recordUnexpected(node)
    if readsDelivered { return node.read(.delivery) }
    // A delivered run inside a batch reading a node of another domain: what that node's sinks
    // have been given, not the batch's newest write there, so the run combines delivered
    // values only; the batch's writes come through this domain once the relink merges the
    // two. Outside a batch, the newest write: what is queued there was written before the
    // change being delivered (rule 4).
    guard mode == .delivery && ThreadContext.current.batch.depth > 0 else {
      return node.read(.latest)
    }
    let (value, isDelivered) = node.valueDeliveredElsewhere()
    if !isDelivered { readUndelivered = true }
    return value
  }

  /// Whether a read of `node` keeps the run in the expected order: it is the next expected
  /// read (counted as matched), or one already matched, read again (`a.value + a.value`).
  @inlinable @inline(__always)
  func matchesExpected(_ node: AnyNode) -> Bool {
    guard inOrder else { return false }
    if matched < expectedCount,
      expectedElements.unsafelyUnwrapped[matched].toOpaque()
        == Unmanaged.passUnretained(node).toOpaque()
    {
      matched += 1
      return true
    }
    return hasMatched(node)
  }

  /// Whether `node` is one of the expected reads already matched in this run.
  @usableFromInline
  func hasMatched(_ node: AnyNode) -> Bool {
    guard matched > 0, let elements = expectedElements else { return false }
    var index = matched
    while index > 0 {
      index -= 1
      if elements[index].toOpaque() == Unmanaged.passUnretained(node).toOpaque() { return true }
    }
    return false
  }

  /// Records a read of `node` that left the expected order; returns whether the run reads it
  /// at its value being delivered (it is of the delivered domain).
  @inlinable @inline(__always)
  func recordUnexpected(_ node: AnyNode) -> Bool {
    let address = Unmanaged.passUnretained(node).toOpaque()
    if !inOrder {
      // Read again, and recently: recorded already, and not at its value being delivered
      // (`read(_:)` answered those first).
      if address == recentRead || address == earlierRead { return false }
    }
    return recordUnexpectedAgain(node)
  }

  /// `recordUnexpected(_:)` for a node not among the last two it answered for, which becomes
  /// the most recent.
  @usableFromInline @inline(never)
  func recordUnexpectedAgain(_ node: AnyNode) -> Bool {
    let isDelivered = recordUnexpectedFirst(node)
    earlierRead = recentRead
    earlierDeliveredRead = recentDeliveredRead
    recentRead = Unmanaged.passUnretained(node).toOpaque()
    recentDeliveredRead = isDelivered ? UInt(bitPattern: recentRead) : 0
    return isDelivered
  }

  /// `recordUnexpected(_:)` without the two recent answers.
  private func recordUnexpectedFirst(_ node: AnyNode) -> Bool {
    let (index, isNew) = record(unordered: node)
    guard mode == .delivery else {
      if isNew { versions.append((node, node.version)) }
      return false
    }
    // Read again: as the first read (which attached it, if it had to).
    if readsDelivered[index] >= 0 { return readsDelivered[index] == 1 }
    if let lag = lagInDeliveredDomain(node) {
      switch lag {
      case .none: break
      case .suspended:
        // A suspended node of the delivered domain becomes a dependency of a node that is
        // delivered to: attach it now (the delivery holds the role), computed from what its
        // inputs deliver, rather than when the run's owner is relinked to it.
        Engine.resume(node)
      case .parkedBehind:
        // A parked branch a write reached, a branch no more (see Engine+Parking.swift):
        // attached already, computed now likewise.
        node.refresh()
      }
      readsDelivered[index] = 1
      return true
    }
    readsDelivered[index] = 0
    if isNew { versions.append((node, node.version)) }
    return false
  }

  /// Records a read of `node` whose value the caller has (an invalidating property's storage).
  package func record(_ node: AnyNode) {
    if matchesExpected(node) { return }
    if record(unordered: node).isNew { versions.append((node, node.version)) }
  }

  /// Records `node` after the reads left the expected order; returns its place in `recorded`
  /// and whether it is new.
  private func record(unordered node: AnyNode) -> (index: Int, isNew: Bool) {
    if inOrder { leaveOrder() }
    if recorded.count < 16 {
      if let index = recorded.firstIndex(where: { $0 === node }) { return (index, false) }
    } else {
      if recordedIndex.isEmpty {
        for (index, earlier) in recorded.enumerated() {
          recordedIndex[ObjectIdentifier(earlier)] = index
        }
      }
      if let index = recordedIndex[ObjectIdentifier(node)] { return (index, false) }
      recordedIndex[ObjectIdentifier(node)] = recorded.count
    }
    recorded.append(node)
    if mode == .delivery { readsDelivered.append(-1) }
    // A source holds no handle (it is never detached): left out, so that a run over relays
    // has nothing to release once its owner is linked.
    if !node.isSource {
      node.retainHandle()
      held.append(node)
    }
    return (recorded.count - 1, true)
  }

  /// Records that the reads left the expected order: what they matched so far becomes the
  /// start of `recorded`. In a delivered run those are the owner's inputs, of the delivered
  /// domain, read at their values being delivered.
  func leaveOrder() {
    inOrder = false
    recentRead = nil
    earlierRead = nil
    for index in 0..<matched {
      recorded.append(expectedElements.unsafelyUnwrapped[index].takeUnretainedValue())
      if mode == .delivery { readsDelivered.append(1) }
    }
  }

  /// How a node of the delivered domain stands for a delivered run that reads it.
  fileprivate enum Lag {
    /// Its value follows what its inputs delivered.
    case none
    /// It is suspended (see `AnyNode.isSuspended`): it must be resumed.
    case suspended
    /// It was a parked branch a write reached (see `Linkage.parked`), and is one no more: it
    /// must be computed again.
    case parkedBehind
  }

  /// If `node` belongs to the domain being delivered, whether its value lags behind what its
  /// inputs delivered; `nil` if it belongs to another domain. A parked branch a write reached
  /// is unparked under the same lock. Takes its lock.
  private func lagInDeliveredDomain(_ node: AnyNode) -> Lag? {
    guard let deliveredNode else { return nil }
    // Of the same domain (a computed property over the same relays as the one computing): one
    // root, so one lock to take.
    if node.home === deliveredNode.home {
      return node.withRootLocked { root in
        let lag = node.takeLag()
        root.lock.unlock()
        return lag
      }
    }
    let delivered = deliveredNode.rootIdentity
    return node.withRootLocked { root in
      let lag = ObjectIdentifier(root) == delivered ? node.takeLag() : nil
      root.lock.unlock()
      return lag
    }
  }

  /// Whether any node recorded as new has taken a write or changed since it was read.
  package func newDependencyChangedSinceRead() -> Bool {
    // None, the common case (every new read of the delivered domain): no call to make.
    guard !versions.isEmpty else { return false }
    return versions.contains { $0.node.version != $0.version }
  }
}

extension AnyNode {
  /// How the node stands for a delivered run of its domain that reads it (see
  /// `ReadTracker.read`); a parked branch is one no more. Lock, role.
  fileprivate final func takeLag() -> ReadTracker.Lag {
    if isSuspended && !isCompleted { return .suspended }
    guard isParked else { return .none }
    return unparkLocked() ? .parkedBehind : .none
  }

  /// The identity of the node's root domain now. Takes the lock.
  final var rootIdentity: ObjectIdentifier {
    withRootLocked { root in
      root.lock.unlock()
      return ObjectIdentifier(root)
    }
  }

  /// How many writes a source has taken, or how many changes a derived node has committed:
  /// a number that moves whenever what a read of the node returns may have moved. Takes the
  /// lock.
  package final var version: UInt64 {
    withRootLocked { root in
      let version = isSource ? writes.count : changeCount
      root.lock.unlock()
      return version
    }
  }
}
