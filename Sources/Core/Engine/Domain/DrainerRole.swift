/// The drainer role of one domain, as a state machine: who delivers the domain's changes, who
/// waits for a turn, and whether the drainer is closing (see ``Domain``).
///
/// A value type kept in the domain under its lock. Its transitions are mutating functions that
/// change the state and return what the caller must do next, outside the state: run the
/// change, queue it, park, wake a thread, deliver the next queued change, leave. The caller
/// holds the domain's lock for every call and performs the action after it, most of them once
/// it has let the lock go. A transition that the state does not allow (a thread leaving a role
/// it does not hold, a role taken twice) is a defect in the engine, and stops the program with
/// "Internal inconsistency" in every build.
///
/// The states (``State``):
///
/// - **free**: nobody delivers. Nothing is queued and nobody waits.
/// - **draining**: one thread delivers; writers that find it so queue their change and return.
/// - **closing**: the drainer delivers what others queued (a snapshot of the queue, see
///   ``DrainPass``); a writer that may wait queues its change and parks until its turn.
/// - **shared**: several threads deliver, just after a merge of two busy domains; each finishes
///   its event, and all but the last leave.
///
/// The write path's test, "free: take it", stays inline and costs what a test of a word costs
/// (``isFree``, ``take(by:)``); the slow decisions are ``queued(by:holdsRoles:queueCount:)``,
/// ``nextStep(of:queueCount:hasSplitCandidates:pass:)``, ``leave(_:)`` and ``absorb(_:)``.
@usableFromInline
struct DrainerRole {
  /// The threads delivering the domain (their contexts' identities).
  @usableFromInline var drainers = Drainers()
  /// Threads parked until their turn, first come, first served. Their contexts are alive: their
  /// threads are blocked.
  @usableFromInline var waiters = RingBuffer<Unmanaged<ThreadContext>>()
  /// Whether the drainer delivers what others queued, so that new writers wait their turn.
  @usableFromInline var isClosing = false

  @usableFromInline init() {}

  /// The role's state, named.
  enum State: Equatable {
    case free, draining, closing, shared
  }

  /// The state the fields are in.
  var state: State {
    if drainers.isEmpty { return .free }
    if !drainers.more.isEmpty { return .shared }
    return isClosing ? .closing : .draining
  }

  /// Whether nobody delivers: a change may take the role and run at once.
  @inlinable @inline(__always) var isFree: Bool { drainers.isEmpty }

  /// Free → draining: `id` takes the free role. The write path's transition, inline.
  @inlinable @inline(__always)
  mutating func take(by id: ObjectIdentifier) {
    if _slowPath(drainers.first != nil) { Self.inconsistency("took a role already held") }
    drainers.first = id
  }

  /// Whether nobody delivers or `id` is one of the drainers: a change `id` makes may join the
  /// domain to one it delivers (see `CascadeOrder.swift`).
  func isFreeOrDrained(by id: ObjectIdentifier) -> Bool {
    drainers.isEmpty || drainers.contains(id)
  }

  /// Whether `id` is a drainer and the only kind there is (several entries of one thread, at
  /// most): a change it makes runs at once, inside its own delivery.
  func isDrained(onlyBy id: ObjectIdentifier) -> Bool { drainers.allAre(id) }

  /// Whether a writer that may wait must do so: the drainer delivers what others queued, or
  /// the queue holds the hand-over limit.
  @inlinable
  func isBusyWithOthers(queueCount: Int) -> Bool {
    isClosing || queueCount >= Engine.handOverLimit
  }

  /// What a thread does once its change is queued behind another's delivery.
  enum AfterQueueing: Equatable {
    /// Return: the drainer delivers the change.
    case returns
    /// Park until the role is handed to it or the queue empties (`Engine.waitForTurn`); it was
    /// added to the waiting threads.
    case waitsForTurn
  }

  /// A change of `context`'s thread was queued (the queue now holds `queueCount`): it waits if
  /// the domain is busy with others' changes and the thread holds no drainer role anywhere (a
  /// drainer that waited could deadlock with another).
  mutating func queued(
    by context: ThreadContext, holdsRoles: Bool, queueCount: Int
  ) -> AfterQueueing {
    if _slowPath(drainers.isEmpty) { Self.inconsistency("queued a change behind a free role") }
    guard !holdsRoles, isBusyWithOthers(queueCount: queueCount) else { return .returns }
    _ = context.parker  // made here, on its own thread, before a waker can look for it
    waiters.append(Unmanaged.passUnretained(context))
    return .waitsForTurn
  }

  /// What the drainer does next, between two queued changes.
  enum Step {
    /// Deliver the first queued change (and, for a batch's write, the rest of its event).
    case deliverNext
    /// The role is the successor's now: wake it (it delivers the rest), and return.
    case handOver(to: Unmanaged<ThreadContext>)
    /// Nothing is queued, or another thread drains too: leave the role (``leave(_:)``).
    case leave
  }

  /// The drainer `id` asks what to do with `queueCount` changes queued. The first call of a
  /// drain that finds work queued takes a snapshot of it and closes the domain; once the
  /// snapshot is delivered, the role goes to the first waiting thread. Once per drain, when
  /// edges wait to be cut off (`hasSplitCandidates`, which need a quiet domain), the drainer
  /// delivers the rest itself instead, so that the queue can run empty.
  mutating func nextStep(
    of id: ObjectIdentifier, queueCount: Int, hasSplitCandidates: Bool, pass: inout DrainPass
  ) -> Step {
    if _slowPath(!drainers.contains(id)) { Self.inconsistency("a drain by a non-drainer") }
    guard queueCount > 0, drainers.more.isEmpty else { return .leave }
    if pass.snapshot < 0 {
      pass.snapshot = queueCount
      isClosing = true
    }
    if pass.snapshot == 0, !pass.deliversTheRest, hasSplitCandidates, !waiters.isEmpty {
      pass.snapshot = queueCount
      pass.deliversTheRest = true
    }
    if pass.snapshot == 0, let successor = waiters.popFirst() {
      drainers.replace(id, with: successor._withUnsafeGuaranteedRef(\.id))
      isClosing = false
      return .handOver(to: successor)
    }
    pass.countDelivered()
    return .deliverNext
  }

  /// Draining (alone, nobody waiting) → free, in one step: the end of a drain that found
  /// nothing queued, inline. Returns `false`, changing nothing, when the slow end is needed.
  ///
  /// The closing flag is cleared too, as `leave(_:)` clears it: a drainer left alone after a
  /// merge with a closing domain (shared, the other drainer gone) finds it set, and leaving it
  /// set made a free role that was closing.
  @inlinable @inline(__always)
  mutating func leaveIfAlone() -> Bool {
    guard drainers.more.isEmpty, waiters.isEmpty else { return false }
    drainers.first = nil
    isClosing = false
    return true
  }

  /// `id` leaves the role. If it was the last drainer, the role is free again: the threads
  /// that waited are returned, to be woken (the queue is empty, so their changes are
  /// delivered).
  mutating func leave(_ id: ObjectIdentifier) -> [Unmanaged<ThreadContext>] {
    if _slowPath(!drainers.contains(id)) { Self.inconsistency("left a role not held") }
    drainers.remove(id)
    guard drainers.isEmpty else { return [] }
    isClosing = false
    var released: [Unmanaged<ThreadContext>] = []
    while let waiter = waiters.popFirst() { released.append(waiter) }
    return released
  }

  /// Takes over the role of a domain merged into this one: its drainers deliver here too
  /// (shared, if both were busy), its waiting threads wait here, after this domain's, and
  /// this domain is closing if either was. `other` is left free.
  mutating func absorb(_ other: inout DrainerRole) {
    // What a root that is not delivering has none of (the usual case), not touched.
    if !other.drainers.isEmpty {
      drainers.append(contentsOf: other.drainers)
      other.drainers = Drainers()
    }
    if !other.waiters.isEmpty { waiters.append(contentsOf: &other.waiters) }
    if other.isClosing {
      isClosing = true
      other.isClosing = false
    }
  }

  /// Whether the fields hold one of the states: a free role has no waiting thread and does not
  /// close. For the invariant checks.
  var violation: String? {
    guard drainers.isEmpty else { return nil }
    if !waiters.isEmpty { return "a free role with \(waiters.count) waiting threads" }
    if isClosing { return "a free role left closing" }
    return nil
  }

  /// Stops for a transition the state does not allow: a defect in the engine.
  @usableFromInline
  static func inconsistency(_ what: String) -> Never {
    fatalError("Internal inconsistency in the drainer role: \(what)")
  }
}

/// One drain's progress through the work others queued (see `DrainerRole.nextStep`): how many
/// changes of the snapshot are still to deliver (-1 before the first look at the queue), and
/// whether the drainer delivers the rest itself.
struct DrainPass {
  var snapshot = -1
  var deliversTheRest = false

  /// One queued change (of the snapshot, while any is left) was taken for delivery.
  mutating func countDelivered() {
    if snapshot > 0 { snapshot -= 1 }
  }
}

/// The threads delivering a domain: almost always none or one, several only briefly after a
/// merge of two busy domains. Kept inline so the write path touches no array.
@usableFromInline
struct Drainers {
  @usableFromInline var first: ObjectIdentifier?
  @usableFromInline var more: [ObjectIdentifier] = []

  @usableFromInline init() {}

  @inlinable var isEmpty: Bool { first == nil }
  var count: Int { first == nil ? 0 : 1 + more.count }

  @inlinable
  mutating func append(_ id: ObjectIdentifier) {
    if first == nil { first = id } else { more.append(id) }
  }

  mutating func append(contentsOf other: Drainers) {
    if let id = other.first { append(id) }
    for id in other.more { append(id) }
  }

  /// Removes one occurrence of `id`.
  @usableFromInline
  mutating func remove(_ id: ObjectIdentifier) {
    if first == id {
      first = more.popLast()
    } else if let index = more.firstIndex(of: id) {
      more.remove(at: index)
    }
  }

  /// Replaces one occurrence of `id` with `successor`: the role handed from one thread to
  /// another.
  mutating func replace(_ id: ObjectIdentifier, with successor: ObjectIdentifier) {
    remove(id)
    append(successor)
  }

  func contains(_ id: ObjectIdentifier) -> Bool { first == id || more.contains(id) }

  /// Whether there is a drainer and every drainer is `id`.
  func allAre(_ id: ObjectIdentifier) -> Bool {
    first == id && more.allSatisfy { $0 == id }
  }
}
