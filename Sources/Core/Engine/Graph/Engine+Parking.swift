// Parked branches. A computed property whose branch flips on every write
// (`flag ? a.value : b.value`, where `a` and `b` are computed properties) lets one input go and
// takes the other back each time. Detaching the one let go and resuming it on the next flip
// cost two walks of the graph, two lock round trips, a queue entry and a stamp check per write.
// Instead, the relink that lets it go parks it: it stays attached, unobserved, and the next
// run that reads it again finds it linked.
//
// A parked branch is lazy all the same (rule 13: unobserved, it is not computed by writes): a
// delivery that reaches it marks it `refreshing` (reads compute it on demand) and does nothing
// else; a delivered run that reads it, a node linked to it or a subscriber computes it then
// from what its inputs delivered (`Engine.resume`, as for a suspended node). Only a computed
// property's node computed from sources, each of which its reader still reads, is parked:
// keeping it attached then makes nothing else compute, and it stays in its reader's domain.
// Its lifetime is bounded by its reader's: the reader's next relink, or its detach, decides
// what becomes of the branch it parked (`AnyNode.parkedBranch`): read again, it is a branch no
// more; not read, it is detached.

extension Engine {
  /// Whether `branch`, an input that a relink just let go (its last handle), may be parked: a
  /// computed property's node (whose `Property` holds no handle: an operator's node let go has
  /// no `Property` left, and no run can read it again), attached, unobserved and live,
  /// computed from at most four sources, each among the relinked node's inputs, the `count`
  /// words at `reads`. Role, under the lock.
  static func mayPark(
    _ branch: AnyNode, readBy reads: UnsafePointer<Unmanaged<AnyNode>>, count readCount: Int
  ) -> Bool {
    guard branch.suspendsWhenUnobserved, branch.isAttached, branch.keepAliveCount == 0,
      branch.linkage.isDisjoint(with: [
        .completed, .awaitsAttachment, .refreshing, .relinkQueued, .parked, .suspended,
      ]),
      branch.parkedBranch == nil, !branch.hasListeners
    else { return false }
    let count = branch.inputs.count
    guard count > 0 && count <= 4, let elements = branch.inputsElements else { return false }
    for index in 0..<count {
      let input = elements[index]
      guard input._withUnsafeGuaranteedRef({ $0.isSource }) else { return false }
      var found = false
      for place in 0..<readCount where reads[place].toOpaque() == input.toOpaque() {
        found = true
        break
      }
      guard found else { return false }
    }
    return true
  }

  /// The part of `reader`'s relink that parks, once its inputs are the new ones:
  /// `releasedFirst`, the first input the relink let go, is parked if it may be (inside the
  /// thread's outermost delivery, where `inOutermostDelivery`), the next of `released` taking
  /// its place; the branch parked before is settled (`unpark`), and added to what the relink
  /// lets go if it was not read again. Returns the reference the slot held before, for the
  /// caller to release once it has unlocked. Role, under the lock.
  @inline(never)
  static func park(
    releasedBy reader: AnyNode, _ inOutermostDelivery: Bool, _ releasedFirst: inout AnyNode?,
    _ released: inout [AnyNode]
  ) -> Unmanaged<AnyNode>? {
    let slot = reader.parkedBranch
    reader.parkedBranch = nil
    if inOutermostDelivery, let first = releasedFirst, let reads = reader.inputsElements,
      mayPark(first, readBy: reads, count: reader.inputs.count)
    {
      first.isParked = true
      reader.parkedBranch = .passRetained(first)
      releasedFirst = released.popLast()
    }
    if let before = slot?.takeUnretainedValue(), let unread = unpark(before) {
      if releasedFirst == nil { releasedFirst = unread } else { released.append(unread) }
    }
    return slot
  }

  /// What becomes of `before`, the branch a node's previous relink parked, once the node's new
  /// relink is done and did not park it again: read again, it is a branch no more; not read, it
  /// is returned, for the caller to detach as it detaches the inputs it let go (a value a write
  /// left behind is computed again if it is resumed: see `detachLocked`). Observed by a
  /// subscriber that waits for its turn (another thread's, its handle taken) while a write left
  /// its value behind, it stays parked: the subscriber's resume computes it. Role, under the
  /// lock (the branch is in its reader's domain, see `mayPark`).
  static func unpark(_ before: AnyNode) -> AnyNode? {
    guard before.isParked else { return nil }
    if before.keepAliveCount == 0 && before.isAttached { return before }
    if !before.isRefreshing { before.isParked = false }
    return nil
  }

  /// The delivery step of a parked branch that a write reached (see `recomputeStep`); returns
  /// whether to compute it as usual. Unobserved, it is not computed: it is marked `refreshing`
  /// (reads compute it on demand), and stays so until a run reads it again or its reader lets
  /// it go for good. Observed again (a node linked to it, a subscription: each computed it
  /// first, see `Engine.resume`), it is a branch no more, computed as any node. Role.
  @inline(never)
  static func reachParked(_ node: AnyNode) -> Bool {
    node.withRootLocked { root in
      let unobserved = node.keepAliveCount == 0
      if unobserved {
        node.isRefreshing = true
      } else {
        node.isParked = false
        // Computed now from what its inputs deliver, which is what a refresh would wait for
        // (a subscriber that took its handle and waits for its turn to resume it).
        node.isRefreshing = false
      }
      root.lock.unlock()
      return !unobserved
    }
  }
}

extension AnyNode {
  /// Makes a parked branch, observed again, a branch no more; returns whether a write left its
  /// value behind (`refreshing`), for the caller to compute it (`refresh()`) once it has
  /// unlocked. Role, under the lock.
  final func unparkLocked() -> Bool {
    isParked = false
    return isRefreshing
  }
}
