/// Scratch space for delivering one event: the rank-ordered work list and the changed nodes.
///
/// Nodes are held unretained: every node reached by an event is kept alive by the graph (its
/// inputs' `downstream` lists) or, for sources, by `sources`, and no node leaves the graph while
/// an event is delivered (detaching is queued behind it), so reference counting here would only
/// add cost.
///
/// The work list and the changed list live in buffers the session owns and only grows, so the
/// per-node steps of a delivery are plain loads and stores: no array uniqueness checks, no
/// bounds checks, no reference counting.
@usableFromInline
final class DrainSession {
  /// A node waiting to be recomputed, with the rank it had when queued.
  typealias Entry = (rank: Int, node: Unmanaged<AnyNode>)

  /// Min-heap of nodes to recompute, by rank: `heapCount` entries of `heapCapacity`.
  @exclusivity(unchecked) private var heap: UnsafeMutablePointer<Entry>
  @exclusivity(unchecked) private var heapCount = 0
  @exclusivity(unchecked) private var heapCapacity = 16
  /// Nodes whose value changed in this event, in the order they were computed:
  /// `changedCount` entries of `changedCapacity`.
  @exclusivity(unchecked) private(set) var changed: UnsafeMutablePointer<Unmanaged<AnyNode>>
  @exclusivity(unchecked) private(set) var changedCount = 0
  @exclusivity(unchecked) private var changedCapacity = 16
  /// Whether the event's sources belong to several domains (a batch delivering every domain
  /// it claimed at once): each node then commits under its own domain's lock.
  @exclusivity(unchecked) var spansDomains = false
  /// Sources of the event; they keep the event's sources alive until it is delivered.
  @exclusivity(unchecked) @usableFromInline var sources: ContiguousArray<AnyNode> = []

  init() {
    heap = .allocate(capacity: heapCapacity)
    changed = .allocate(capacity: changedCapacity)
  }

  deinit {
    heap.deallocate()
    changed.deallocate()
  }

  /// Whether no node waits to be recomputed.
  var isIdle: Bool { heapCount == 0 }

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
    changedCount += 1
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

  func push(_ node: AnyNode) { push(Unmanaged.passUnretained(node)) }

  @inline(__always)
  private func push(_ reference: Unmanaged<AnyNode>) {
    let rank = reference._withUnsafeGuaranteedRef { node -> Int in
      if node.isQueued { return -1 }
      node.isQueued = true
      return node.rank
    }
    guard rank >= 0 else { return }
    if _slowPath(heapCount == heapCapacity) { growHeap() }
    var child = heapCount
    heapCount += 1
    // Sift up by moving parents down into the hole, then fill it.
    while child > 0 {
      let parent = (child - 1) / 2
      guard rank < heap[parent].rank else { break }
      heap[child] = heap[parent]
      child = parent
    }
    heap[child] = (rank, reference)
  }

  private func growHeap() {
    let grown = UnsafeMutablePointer<Entry>.allocate(capacity: heapCapacity * 2)
    grown.moveInitialize(from: heap, count: heapCount)
    heap.deallocate()
    heap = grown
    heapCapacity *= 2
  }

  /// Restores heap order after ranks changed mid-event (a `flatMapLatest` switching inputs).
  func reorder() {
    let entries = (0..<heapCount).map { heap[$0].node }
    heapCount = 0
    for entry in entries {
      entry._withUnsafeGuaranteedRef { $0.isQueued = false }
      push(entry)
    }
  }

  /// Removes and returns the queued node of lowest rank.
  func popMin() -> Unmanaged<AnyNode>? {
    guard heapCount > 0 else { return nil }
    let node = heap[0].node
    heapCount -= 1
    if heapCount > 0 {
      // Sift the last entry down from the root.
      let last = heap[heapCount]
      var parent = 0
      while true {
        let left = 2 * parent + 1
        guard left < heapCount else { break }
        let right = left + 1
        let smaller = right < heapCount && heap[right].rank < heap[left].rank ? right : left
        guard heap[smaller].rank < last.rank else { break }
        heap[parent] = heap[smaller]
        parent = smaller
      }
      heap[parent] = last
    }
    node._withUnsafeGuaranteedRef { $0.isQueued = false }
    return node
  }
}
