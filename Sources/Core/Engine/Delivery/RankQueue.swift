/// The work list of one event's delivery: the nodes waiting to be recomputed, taken lowest rank
/// first, so that a node is recomputed after every input that changed (rule 2, no glitches).
///
/// `buckets[r]` heads a list (linked through `AnyNode.nextQueued`) of the queued nodes of rank
/// `r`, for `r < capacity`. A node only ever queues nodes of higher rank than its own, so taking
/// the lowest is a short forward scan from `lowestRank`, and queueing is a push onto a list: no
/// heap to sift. Nodes are held unretained (see `DrainSession`); a node is queued at most once
/// (`AnyNode.isQueued`). The buckets are owned here and only grow; the owner frees them with
/// `deallocate()`.
struct RankQueue {
  private var buckets: UnsafeMutablePointer<Unmanaged<AnyNode>?>
  private var capacity = 16
  /// No bucket below this rank holds a node (`Int.max` when none is queued).
  private var lowestRank = Int.max
  private var count = 0

  init() {
    buckets = .allocate(capacity: capacity)
    buckets.initialize(repeating: nil, count: capacity)
  }

  /// Frees the buckets; the queue is not used after.
  func deallocate() { buckets.deallocate() }

  /// Whether no node waits.
  var isEmpty: Bool { count == 0 }

  /// Queues `reference` under its rank, unless it is queued already.
  @inline(__always)
  mutating func push(_ reference: Unmanaged<AnyNode>) {
    let rank = reference._withUnsafeGuaranteedRef { node -> Int in
      if node.isQueued { return -1 }
      node.isQueued = true
      return node.rank
    }
    guard rank >= 0 else { return }
    if _slowPath(rank >= capacity) { grow(toHold: rank) }
    // A local copy of the pointer: a closure that captured `self` (inout) would make the
    // whole queue go through memory.
    let buckets = self.buckets
    reference._withUnsafeGuaranteedRef { $0.nextQueued = buckets[rank] }
    buckets[rank] = reference
    count &+= 1
    if rank < lowestRank { lowestRank = rank }
  }

  /// Removes and returns a queued node of the lowest rank.
  @inline(__always)
  mutating func popMin() -> Unmanaged<AnyNode>? {
    guard count > 0 else { return nil }
    while buckets[lowestRank] == nil { lowestRank &+= 1 }
    let buckets = self.buckets
    let rank = lowestRank
    let node = buckets[rank].unsafelyUnwrapped
    node._withUnsafeGuaranteedRef { node in
      buckets[rank] = node.nextQueued
      node.nextQueued = nil
      node.isQueued = false
    }
    count &-= 1
    if count == 0 { lowestRank = Int.max }
    return node
  }

  /// Re-queues every queued node under its current rank, after ranks changed mid-event (a
  /// `flatMapLatest` switching inputs).
  mutating func reorder() {
    var queued: [Unmanaged<AnyNode>] = []
    while let node = popMin() { queued.append(node) }
    for node in queued { push(node) }
  }

  private mutating func grow(toHold rank: Int) {
    var grown = capacity * 2
    while grown <= rank { grown *= 2 }
    let bigger = UnsafeMutablePointer<Unmanaged<AnyNode>?>.allocate(capacity: grown)
    bigger.moveInitialize(from: buckets, count: capacity)
    (bigger + capacity).initialize(repeating: nil, count: grown - capacity)
    buckets.deallocate()
    buckets = bigger
    capacity = grown
  }
}
