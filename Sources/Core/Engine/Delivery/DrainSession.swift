/// Scratch space for delivering one event: the work list (a `RankQueue`), the changed nodes,
/// the event's sources and follow-ups. A thread keeps its sessions between deliveries (see
/// `ThreadContext.withSession(_:)`), so a delivery allocates nothing once warmed up.
///
/// Nodes are held unretained: every node reached by an event is kept alive by the graph (its
/// inputs' `downstream` lists) or, for sources, by `sources`, and no node leaves the graph while
/// an event is delivered (detaching waits for its end), so reference counting here would only
/// add cost.
///
/// The work list and the changed list live in buffers the session owns and only grows, so the
/// per-node steps of a delivery are plain loads and stores: no array uniqueness checks, no
/// bounds checks, no reference counting. Counts and ranks are bounded by the number of nodes
/// in memory, so they add without overflow checks.
@usableFromInline
final class DrainSession {
  /// Nodes waiting to be recomputed, lowest rank first.
  @exclusivity(unchecked) private var work = RankQueue()
  /// Nodes whose value changed in this event, in the order they were computed:
  /// `changedCount` entries of `changedCapacity`.
  @exclusivity(unchecked) private(set) var changed: UnsafeMutablePointer<Unmanaged<AnyNode>>
  @exclusivity(unchecked) private(set) var changedCount = 0
  @exclusivity(unchecked) private var changedCapacity = 16
  /// Whether the event's sources belong to several domains (a batch delivering every domain
  /// it claimed at once): each node then commits under its own domain's lock.
  @exclusivity(unchecked) var spansDomains = false
  /// How many source writes the event under delivery delivers (set as its propagation
  /// starts): while its domain's `unsettled` count equals it, no later write waits, and the
  /// newest values are the ones the event delivers (`Engine.newestWriteStamp(deliveredWith:)`).
  @exclusivity(unchecked) var eventWrites = 0
  /// Sources of the event; they keep the event's sources alive until it is delivered.
  @exclusivity(unchecked) @usableFromInline var sources: ContiguousArray<AnyNode> = []
  /// Event nodes to deliver once more, each as an event of its own, right after this event
  /// (see `Engine+FollowUps.swift`), and whether they are being delivered.
  @exclusivity(unchecked) var followUps: ContiguousArray<AnyNode> = []
  @exclusivity(unchecked) var isDeliveringFollowUps = false
  /// Inputs the event's relinks let go, detached once it and its follow-ups are delivered
  /// (see `Engine.detachReleased(by:_:)`). Only the thread's primary session, its outermost
  /// delivery, keeps them: a nested delivery's end is the middle of the one around it.
  @exclusivity(unchecked) var released: ContiguousArray<AnyNode> = []

  init() {
    changed = .allocate(capacity: changedCapacity)
  }

  deinit {
    work.deallocate()
    changed.deallocate()
  }

  /// Whether no node waits to be recomputed.
  var isIdle: Bool { work.isEmpty }

  /// Records that `source` was written in this event and queues what is computed from it.
  @inline(__always)
  func markWritten(_ source: AnyNode) {
    source.isChanged = true
    appendChanged(Unmanaged.passUnretained(source))
    pushDownstream(of: source)
  }

  /// Records that `node` changed in this event.
  @inline(__always)
  func appendChanged(_ node: Unmanaged<AnyNode>) {
    if _slowPath(changedCount == changedCapacity) { growChanged() }
    (changed + changedCount).initialize(to: node)
    changedCount &+= 1
  }

  /// Forgets the changed nodes, keeping the buffer.
  func removeAllChanged() { changedCount = 0 }

  private func growChanged() {
    let grown = UnsafeMutablePointer<Unmanaged<AnyNode>>.allocate(capacity: changedCapacity * 2)
    grown.moveInitialize(from: changed, count: changedCount)
    changed.deallocate()
    changed = grown
    changedCapacity *= 2
  }

  /// Queues every node computed from `node`.
  @inline(__always)
  func pushDownstream(of node: AnyNode) {
    // Read the references as raw words: the graph keeps them alive (see above), so neither
    // the array nor its elements need retaining.
    let count = node.downstream.count
    guard count > 0, let elements = node.downstreamElements else { return }
    for index in 0..<count {
      push(elements.load(fromByteOffset: index &* 8, as: Unmanaged<AnyNode>.self))
    }
  }

  /// Queues `node` to be recomputed, unless it is queued already.
  func push(_ node: AnyNode) { work.push(Unmanaged.passUnretained(node)) }

  @inline(__always)
  private func push(_ reference: Unmanaged<AnyNode>) { work.push(reference) }

  /// Re-queues every queued node under its current rank, after ranks changed mid-event (a
  /// `flatMapLatest` switching inputs).
  func reorder() { work.reorder() }

  /// Removes and returns a queued node of the lowest rank.
  @inline(__always)
  func popMin() -> Unmanaged<AnyNode>? { work.popMin() }
}
