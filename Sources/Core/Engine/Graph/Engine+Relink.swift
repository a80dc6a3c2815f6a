// The dynamic edges: a node computed from other inputs than before (`flatMapLatest`'s switch,
// a computed property's or a view pass's new reads), relinked in delivery order.

extension Engine {
  /// Makes `node` computed from `newInputs` instead of its current inputs: the dynamic edge
  /// behind `flatMapLatest`.
  ///
  /// Call it from the node's own `compute` in `.delivery` mode. When this thread is the only
  /// drainer of the merged domain the switch happens at once, ranks are raised so the node
  /// still follows its inputs, and if a new input is itself about to change in this event the
  /// node is recomputed after it. Otherwise the switch is queued behind the delivery under way
  /// and the node is refreshed then; until then it reads its new inputs' newest values.
  ///
  /// - Returns: Whether the switch happened at once.
  /// - Parameter held: Nodes whose keep-alive handles the caller holds until the switch is done (see
  ///   `ReadTracker.held`): released once `node` is linked to its new inputs.
  @discardableResult
  package static func switchInputs(
    of node: AnyNode, to newInputs: [AnyNode], releasingAfterwards held: [AnyNode] = []
  ) -> Bool {
    // The context borrowed: `ThreadContext.current` retained and released it.
    ThreadContext.withCurrent { context in
      switchInputs(of: node, to: newInputs, releasingAfterwards: held, heldBy: nil, context)
    }
  }

  /// `switchInputs(of:to:releasingAfterwards:)` for a delivered run's relink, with the handles
  /// of what it read still held by its tracker (see `ReadTracker.held`): taken from it only if
  /// the switch is queued, otherwise released in place once the node is linked (no array
  /// handed over, freed, and allocated again by the next run's first read).
  static func switchInputs(
    of node: AnyNode, to newInputs: [AnyNode], heldBy tracker: ReadTracker
  ) -> Bool {
    ThreadContext.withCurrent { context in
      switchInputs(of: node, to: newInputs, releasingAfterwards: [], heldBy: tracker, context)
    }
  }

  /// `switchInputs(of:to:releasingAfterwards:)` on the calling thread, whose context is
  /// `context`, releasing `tracker`'s held nodes too, if given.
  private static func switchInputs(
    of node: AnyNode, to newInputs: [AnyNode], releasingAfterwards held: [AnyNode],
    heldBy tracker: ReadTracker?, _ context: ThreadContext
  ) -> Bool {
    // A branch that flipped (one input swapped for another of the node's home, the common
    // switch of a computed property and of `flatMapLatest`): in place, nothing joined or
    // matched.
    if let place = onlyPlaceSwapped(of: node, in: newInputs),
      newInputs.withUnsafeBufferPointer({ buffer in
        // Borrowed: the caller's array holds it.
        Unmanaged.passUnretained(buffer[place])._withUnsafeGuaranteedRef {
          swapInput(of: node, at: place, for: $0, context)
        }
      })
    {
      for input in held { input.releaseHandle() }
      tracker?.releaseHeld()
      return true
    }
    // The new links' span is counted now (see `Domain.join`), so that nothing splits what the
    // relink joins before it happens; the relink lets go of the old links' span.
    let root = Domain.join(from: node.home, newInputs).lockRoot()
    guard root.isDrained(onlyBy: context) || root.role.isFree else {
      // Until the relink, the node's delivered value was computed from its new inputs' newest
      // values, which their writes delivered meanwhile do not follow: reads compute the node on
      // demand (`Linkage.relinkQueued`) until its recomputation is delivered.
      node.isRelinkQueued = true
      let held = tracker.map { $0.takeHeld() } ?? held
      root.queue.append(
        .task(
          {
            let context = ThreadContext.current
            relink(node, to: newInputs, context)
            deliverRecomputation(of: node, context)
            let root = node.home.lockRoot()
            node.isRelinkQueued = false
            root.lock.unlock()
            for input in held { input.releaseHandle() }
          }, depth: 0))
      root.lock.unlock()
      return false
    }
    // Called outside any delivery (the role free), the switch takes the role for itself: no
    // other thread's delivery may run while the edges move.
    let takesRole = root.role.isFree
    if takesRole { takeRole(of: root, context) }
    root.lock.unlock()
    relink(node, to: newInputs, context)
    for input in held { input.releaseHandle() }
    tracker?.releaseHeld()
    if takesRole { finishDrain(of: root, context) }
    return true
  }

  /// Queues `node` to be computed again later in the event being delivered on this thread:
  /// an input read in its computation changed after that read. Role.
  package static func recomputeLater(_ node: AnyNode) {
    node.assertRole()
    ThreadContext.withCurrent { $0.sessions.active?.push(node) }
  }

  /// Makes `node` computed from `newInputs` instead of its current inputs, in delivery order:
  /// from outside a delivery (a view pass that read other properties than last time), taking
  /// the role or waiting for its turn, so no event is delivered while the edges move.
  package static func relinkInOrder(
    _ node: AnyNode, to newInputs: [AnyNode], releasingAfterwards held: [AnyNode] = []
  ) {
    // Counted now, let go by the relink for the old links (see `switchInputs`). The top of the
    // span, not the root: what is above it may be cut off before the relink runs.
    let top = Domain.join(from: node.home, newInputs)
    performInOrder(in: top) {
      relink(node, to: newInputs, ThreadContext.current)
      for input in held { input.releaseHandle() }
    }
  }

  /// Releases the keep-alive handles of `held` (see `ReadTracker.held`) after the changes already queued
  /// in `node`'s domain, among them its attachment: in delivery order.
  @usableFromInline
  package static func releaseInOrder(_ held: [AnyNode], after node: AnyNode) {
    guard !held.isEmpty else { return }
    performInOrder(in: node.home) { for input in held { input.releaseHandle() } }
  }

  /// Moves `node`'s edges to `newInputs` and restores rank order. Role.
  fileprivate static func relink(_ node: AnyNode, to newInputs: [AnyNode], _ context: ThreadContext)
  {
    node.assertRole()
    if node.isAttached { resumeSuspendedInputs(of: newInputs) }
    let root = node.home.lockRoot()
    #if DEBUG
      let oldInputsForChecks = node.inputs
    #endif
    // The old links let go of the merges they held (the new ones were counted by
    // `switchInputs` or `relinkInOrder`); what is left at zero is cut once the domain is quiet.
    // Kept for that only when an old input is of another domain: a copy held while `inputs`
    // changes in place below would have it copied.
    let oldInputs: ContiguousArray<AnyNode> =
      node.anyInput { $0.home !== node.home } ? node.inputs : []
    // Usually one input at most is let go (a branch that flipped): kept out of an array.
    var releasedFirst: AnyNode?
    var released: [AnyNode] = []
    if node.isAttached {
      moveEdges(of: node, to: newInputs) { input in
        if releasedFirst == nil { releasedFirst = input } else { released.append(input) }
      }
    }
    // In place when as many (a branch that flipped): the array is not allocated again, nor the
    // old one freed, and only the inputs that changed are stored.
    if node.inputs.count == newInputs.count {
      // Compared as words (see `AnyNode.inputsElements`), with no reference counting.
      for index in newInputs.indices
      where node.inputsElements.unsafelyUnwrapped[index].toOpaque()
        != Unmanaged.passUnretained(newInputs[index]).toOpaque()
      {
        node.inputs[index] = newInputs[index]
      }
    } else {
      node.inputs = ContiguousArray(newInputs)
    }
    if !oldInputs.isEmpty {
      let hadCandidates = !root.splitCandidates.isEmpty
      _ = root.countSpan(
        from: node.home, oldInputs, by: -1, walk: context.takeUniqueIdentity())
      _ = root.splitIfQuiet(hadCandidates: hadCandidates)  // the role is this thread's: queued
    }
    // Raise ranks so that every node still comes after its inputs. Usually nothing moves (the
    // new inputs rank below the node already): checked before any work list is made.
    let reranked = node.anyInput { $0.rank >= node.rank }
    var work: [AnyNode] = reranked ? [node] : []
    while let next = work.popLast() {
      let needed = next.inputs.reduce(0) { max($0, $1.rank + 1) }
      guard needed > next.rank else { continue }
      next.rank = needed
      for child in next.downstream {
        if child === node {
          root.lock.unlock()
          if node.origin?.isComputedProperty == true {
            misuse(
              """
              \(node.describedForMisuse) depends on itself: its computation read a property \
              computed from it. Compute it from the sources instead, or read the other \
              property with `untracked { }` if it must not follow it.
              """)
          }
          misuse(
            """
            A derived value depends on itself: flatMapLatest switched to a property computed \
            from the flatMapLatest itself. Derive the inner property from the sources instead.
            """)
        }
        work.append(child)
      }
    }
    completeRelink(
      of: node, root, reranked: reranked,
      inputChangesLater: newInputs.contains { $0.isQueued }, releasedFirst, released, context)
    #if DEBUG
      checkLocalInvariants(of: node)
      for input in oldInputsForChecks { checkLocalInvariants(of: input) }
    #endif
  }

  /// The one place where `newInputs` differs from `node`'s as many inputs: the input a flip
  /// swapped for another. `nil` when their counts differ, when none differs, or more than one.
  /// Role (which alone changes the inputs).
  @inline(__always)
  private static func onlyPlaceSwapped(of node: AnyNode, in newInputs: [AnyNode]) -> Int? {
    guard newInputs.count == node.inputs.count, let inputs = node.inputsElements else {
      return nil
    }
    return newInputs.withUnsafeBufferPointer { buffer in
      guard let reads = buffer.unmanagedElements else { return nil }
      var swapped: Int?
      for index in buffer.indices where reads[index].toOpaque() != inputs[index].toOpaque() {
        guard swapped == nil else { return nil }
        swapped = index
      }
      return swapped
    }
  }

  /// `relink(_:to:_:)` for a flip (`flag ? a.value : b.value`, a `flatMapLatest` switched
  /// between inner properties over its own sources): the input at `place` swapped for
  /// `input`, every other kept, in a delivery this thread drains. Both inputs of the node's
  /// own home, nothing is joined, and no span counted or let go (a span runs from each input's
  /// home to the node's, so both count none). A delivered run's read resumed the new input if
  /// it was suspended or parked (`ReadTracker.recordUnexpected(_:)`). Returns `false`, with
  /// nothing changed, when the node is detached, either input is of another home, the new
  /// input still needs resuming (a node made in the run, awaiting its attachment) or ranks at
  /// or above the node, or this thread is not the domain's only drainer: the caller relinks
  /// the general way. Role.
  private static func swapInput(
    of node: AnyNode, at place: Int, for input: AnyNode, _ context: ThreadContext
  ) -> Bool {
    node.assertRole()
    let word = node.inputsElements.unsafelyUnwrapped[place]
    guard node.isAttached, input.home === node.home,
      word._withUnsafeGuaranteedRef({ $0.home === node.home })
    else { return false }
    return node.withRootLocked { root in
      guard root.isDrained(onlyBy: context), !input.needsResuming, input.rank < node.rank else {
        root.lock.unlock()
        return false
      }
      #if DEBUG
        let oldForChecks = word.takeUnretainedValue()
      #endif
      var releasedFirst: AnyNode?
      word._withUnsafeGuaranteedRef { old in unlink(node, from: old) { releasedFirst = $0 } }
      input.addDownstream(node)
      node.inputs[place] = input
      completeRelink(
        of: node, root, reranked: false, inputChangesLater: input.isQueued,
        releasedFirst, [], context)
      #if DEBUG
        checkLocalInvariants(of: node)
        checkLocalInvariants(of: oldForChecks)
      #endif
      return true
    }
  }

  /// The end of a relink of `node` under the lock of `root`, its root, once its edges and
  /// inputs are the new ones: parks the branch let go if it may be (`releasedFirst`, the first
  /// of what the relink let go, and `released`, the rest) and settles the one parked before
  /// (released once unlocked), marks a pulled value as not the new inputs'
  /// (`readsMatchInputs`), unlocks, and has the delivery under way reorder (`reranked`) or
  /// compute the node again after an input queued in it (`inputChangesLater`). What is let go
  /// and not parked is detached: at the end of the thread's outermost delivery, or once its
  /// domain's delivery is done. Role.
  private static func completeRelink(
    of node: AnyNode, _ root: Domain, reranked: Bool, inputChangesLater: Bool,
    _ releasedFirst: consuming AnyNode?, _ released: consuming [AnyNode],
    _ context: ThreadContext
  ) {
    // Inside the thread's outermost delivery (a branch that flipped as its event was
    // delivered), what a relink lets go is kept by the session until the event's end
    // (`detachReleased(by:_:)`): nothing queued, nor a drain to deliver it.
    let inOutermostDelivery =
      context.sessions.activeReference?.toOpaque()
      == Unmanaged.passUnretained(context.primarySession).toOpaque()
    // The branch let go may stay attached, parked; the one parked before is settled (see
    // Engine+Parking.swift).
    var parkedBefore: Unmanaged<AnyNode>?
    if releasedFirst != nil || node.parkedBranch != nil {
      parkedBefore = park(releasedBy: node, inOutermostDelivery, &releasedFirst, &released)
    }
    // A value pulled before the relink read the old inputs: no delivery takes it.
    node.pullCache.readsMatchInputs = false
    #if DEBUG
      node.relinkCount += 1
    #endif
    root.lock.unlock()
    parkedBefore?.release()  // outside the lock: it may be the last reference
    if reranked || inputChangesLater, let session = context.sessions.active {
      if reranked { session.reorder() }
      if inputChangesLater { session.push(node) }
    }
    guard let releasedFirst else { return }
    if inOutermostDelivery {
      context.primarySession.released.append(releasedFirst)
      for input in released { context.primarySession.released.append(input) }
    } else {
      detachAfterDelivery(releasedFirst)
      for input in released { detachAfterDelivery(input) }
    }
  }

  /// Moves the edges of `node`, attached, from its inputs to `newInputs`, touching only those
  /// that change: an input kept (usually all but the branch that flipped) keeps its handle and
  /// its place in `downstream` (dropped and taken again, its last handle queued a detach that
  /// then found it in use). `released` is given each input let go whose last handle that was.
  /// Role, under the lock.
  private static func moveEdges(
    of node: AnyNode, to newInputs: [AnyNode], released: (AnyNode) -> Void
  ) {
    let oldCount = node.inputs.count
    // Matched by a search of the new inputs for each old one, marking those found: up to 64
    // each, as bits of one word. (An input read twice, `combineLatest(a, a)`, is linked twice.)
    guard oldCount <= 64 && newInputs.count <= 64 else {
      for index in 0..<oldCount { unlink(node, from: node.inputs[index], released) }
      for input in newInputs { input.addDownstream(node) }
      return
    }
    var kept: UInt64 = 0
    // Compared as words (see `AnyNode.inputsElements`), with no reference counting: `inputs`
    // does not change here, and the caller's array holds the new ones.
    let old = node.inputsElements
    newInputs.withUnsafeBufferPointer { buffer in
      let new = buffer.unmanagedElements
      for index in 0..<oldCount {
        let input = old.unsafelyUnwrapped[index]
        var place = 0
        while place < buffer.count
          && (kept & (1 << place) != 0
            || new.unsafelyUnwrapped[place].toOpaque() != input.toOpaque())
        {
          place += 1
        }
        if place < buffer.count {
          kept |= 1 << place
        } else {
          unlink(node, from: input.takeUnretainedValue(), released)
        }
      }
    }
    for place in newInputs.indices where kept & (1 << place) == 0 {
      newInputs[place].addDownstream(node)
    }
  }

  /// Takes `node` out of `input`'s `downstream` and drops the handle it held; hands `input` to
  /// `released` if that was its last. Role, under the lock.
  @inline(__always)
  private static func unlink(_ node: AnyNode, from input: AnyNode, _ released: (AnyNode) -> Void) {
    input.removeDownstream(node)
    if input.dropHandle() { released(input) }
  }
}
