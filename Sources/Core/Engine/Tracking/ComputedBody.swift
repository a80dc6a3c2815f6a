/// A computed property's body as its node runs it (first run, delivered runs, relink): the
/// user's computation, its cut-off, and the node, for the computation to relink it to what it
/// read. It is the trigger of the computation's `@Observable` reads too (an
/// `ObservationTrigger`), and the node's compute closure captures it alone, so that the closure
/// needs no context of its own: a computed property allocates this one object for all three.
///
/// Inlinable, so that the node's steps and the computation's reads are specialized for the
/// caller's value type: unspecialized, the generic metadata lookups cost more than the rest.
@usableFromInline
final class ComputedBody<Value>: ObservationTrigger, @unchecked Sendable {
  // Safe: `node` is set once, before the node is shared; the rest is immutable (the trigger's
  // fields are guarded as its own comment says).
  /// The user's computation.
  @usableFromInline let body: @Sendable () -> Value
  /// Whether a new value is a repeat of the previous one, which then notifies nobody (the
  /// values are `Equatable`), or `nil`.
  @usableFromInline let isDuplicate: (@Sendable (Value, Value) -> Bool)?
  /// The node; it owns this body (through its compute closure), hence unowned.
  @exclusivity(unchecked) @usableFromInline var node: Unmanaged<AnyNode>?

  @inlinable
  init(body: @escaping @Sendable () -> Value, isDuplicate: (@Sendable (Value, Value) -> Bool)?) {
    self.body = body
    self.isDuplicate = isDuplicate
  }

  /// Computes the first value, finds the domain of what it read, and makes and attaches the
  /// node.
  @inlinable
  static func makeNode(
    _ body: @escaping @Sendable () -> Value, isDuplicate: (@Sendable (Value, Value) -> Bool)?,
    file: StaticString, line: UInt
  ) -> DerivedNode<Value> {
    let computedBody = ComputedBody(body: body, isDuplicate: isDuplicate)
    var initial: Value?
    var readsObservable = false
    let start = ThreadContext.withCurrent { context in
      context.trackFirstRun { readsObservable = computedBody.track { initial = body() } }
    }
    let node = DerivedNode<Value>(
      computedFrom: start.inputs, home: start.home, initial: initial.unsafelyUnwrapped,
      stamp: start.stamp, body: computedBody)
    // Stored as the lookup gives it, unretained (see `AnyNode.origin`): through
    // `setOrigin(.made(…))` this generic function retained and released it.
    node.originReference = NodeOrigin.madeUnretained("computed", file: file, line: line)
    computedBody.node = Unmanaged.passUnretained(node)
    node.observableReads = readsObservable ? .seen : .noneSeen
    node.suspendsWhenUnobserved = true
    if start.inputs.isEmpty {
      // A constant: attached to nothing, it completes at once.
      node.attachComputed()
    } else {
      // Not attached until something observes it (see `AnyNode.suspendsWhenUnobserved`):
      // until then, reads compute it on demand, and the first value is the first of them.
      node.isSuspended = true
      node.suspension.writes = start.stamp.writes
      node.suspension.settled = start.stamp.settled
      if start.stamp.settled {
        node.pullCache.isDelivered = true
        node.pullCache.hasValue = true
        node.pullCache.stamp = start.stamp.writes
      }
    }
    Engine.releaseInOrder(start.held, after: node)
    return node
  }

  /// Runs the computation inside a tracked run, following the `@Observable` objects it reads
  /// through `observation`'s source; in `.delivery` mode inside a segment of a delivery that
  /// tracks them for many runs at once (see `Engine.recomputeSegment`), a computation not seen
  /// reading any runs untracked and is listed for the segment.
  @inlinable
  func runBody(
    _ node: AnyNode, _ mode: _ReadMode, _ context: ThreadContext, _ body: () -> Value
  ) -> Value {
    if context.computation.isInObservationSegment {
      // On demand (in a pull), every computation runs in the segment: the mark is the
      // role's, and a pulled value that read `@Observable` objects is only not cached.
      if mode == .latest {
        context.computation.segmentPulled.append(node)
        return body()
      }
      if node.observableReads == .noneSeen {
        if !node.isListedInSegment {
          node.isListedInSegment = true
          node.nextSegmentRun = context.computation.segmentDelivered
          context.computation.segmentDelivered = Unmanaged.passUnretained(node)
        }
        return body()
      }
    }
    var value: Value?
    // Only a delivery holds the role that guards the mark.
    if track({ value = body() }), mode == .delivery { node.observableReads = .seen }
    return value.unsafelyUnwrapped
  }

  /// A delivered run with a tracker from the pool: while the thread's delivery tracker is in
  /// use (not expected to happen: see `ThreadContext.deliveryTracker`), or a run made again
  /// once the relink of the one before left a value it read stale (see `relinkDelivered`).
  @inlinable @inline(never)
  func runNested(_ node: AnyNode, _ context: ThreadContext, _ body: () -> Value) -> Value {
    let tracker = context.beginRun(
      mode: .delivery, elements: node.inputsElements, count: node.inputs.count,
      deliveredNode: node)
    let value = runBody(node, .delivery, context, body)
    if context.endRun(tracker) {
      context.finishRun(tracker)
    } else {
      let again = context.relinkDelivered(node, tracker)
      context.finishRun(tracker)
      if again { return runNested(node, context, body) }
    }
    return value
  }

  /// The node's compute (see `DerivedNode`): runs the computation, tracking its reads; in
  /// `.delivery` mode, relinks the node to what it read when that changed; returns `nil` for
  /// a value equal to `previous` when the value is `Equatable`.
  @inlinable
  func compute(_ mode: _ReadMode, _ previous: Value?) -> Value? {
    let computed = ThreadContext.withCurrent { context -> Value in
      node.unsafelyUnwrapped._withUnsafeGuaranteedRef { node in
        guard mode == .delivery else {
          var value: Value?
          context.trackComputation(of: node) { value = runBody(node, mode, context, body) }
          return value.unsafelyUnwrapped
        }
        // A delivery of the writes a pull inside the batch computed the value from: that
        // value, computed once (rule 3).
        if _slowPath(context.computation.pulledInBatch),
          let pulled = unsafeDowncast(node, to: DerivedNode<Value>.self).pulledForDelivery(context)
        {
          return pulled
        }
        // A delivery: the node's inputs are the expected reads, kept alive and unchanged by
        // the node until the run's end. The common case (the same reads) ends here, with the
        // thread's delivery tracker, readied in place.
        return context.deliveryTracker._withUnsafeGuaranteedRef { tracker in
          guard _fastPath(!tracker.isInUse) else { return runNested(node, context, body) }
          tracker.isInUse = true
          #if DEBUG
            tracker.assertClean()
          #endif
          tracker.expectedElements = node.inputsElements
          tracker.expectedCount = node.inputs.count
          tracker.deliveredNode = node
          tracker.matched = 0
          tracker.inOrder = true
          tracker.outer = context.computation.activeTracker
          context.setActiveTracker(tracker)
          let value = runBody(node, .delivery, context, body)
          context.setActiveTracker(tracker.outer)
          if _slowPath(!tracker.inOrder || tracker.matched != tracker.expectedCount) {
            // Still in use while relinking: attaching a new input may resume a suspended
            // computed property, whose delivered run must take a tracker of its own, not
            // this one, which holds this run's reads until the relink has read them.
            if context.relinkDelivered(node, tracker) {
              tracker.isInUse = false
              return runNested(node, context, body)
            }
          }
          tracker.isInUse = false
          return value
        }
      }
    }
    if let previous, isDuplicate?(previous, computed) == true { return nil }
    return computed
  }
}

extension ThreadContext {
  /// Runs `body`, a computed property's first computation, as a tracked run; returns what it
  /// read, their merged domain, and that domain's write stamp, marked unsettled when a write
  /// landed on something between its read and the stamp (the attachment then recomputes).
  @usableFromInline
  func trackFirstRun(_ body: () -> Void) -> (
    inputs: ContiguousArray<AnyNode>, home: Domain, stamp: (writes: UInt64, settled: Bool),
    held: [AnyNode]
  ) {
    var held: [AnyNode] = []
    var inputs: ContiguousArray<AnyNode> = []
    var home: Domain?
    var stamp: (writes: UInt64, settled: Bool) = (0, false)
    // A first run that read a value computed from inputs it is not linked to (a suspended
    // computed property whose branch flipped) is not described by its domain's stamp: it is
    // neither cached for it nor taken as settled.
    _ = withOwnCacheability(propagating: false) {
      withTracker(mode: .latest, expected: [], body) { tracker in
        inputs = tracker.sharedRecorded()
        // Merged with the node's span counted (see `Domain.join`): the node, made next, holds
        // it.
        let domain = inputs.isEmpty ? Domain.make() : Domain.join(from: nil, inputs)
        stamp = domain.writeStamp()
        if tracker.newDependencyChangedSinceRead() || !computation.pulledValueIsCacheable {
          stamp.settled = false
        }
        home = domain
        held = tracker.takeHeld()
      }
    }
    return (inputs, home.unsafelyUnwrapped, stamp, held)
  }

  /// Ends the delivered run of `node` that `tracker` tracked, which read other nodes than the
  /// previous run: relinks the node to what it read, then clears the tracker.
  ///
  /// - Returns: Whether the caller must run the computation again at once: a value the run
  ///   read is not the one its new input now delivers, and no delivery is under way on this
  ///   thread to compute the node again later (the run is a refresh, of a node attached or
  ///   resumed).
  @usableFromInline
  func relinkDelivered(_ node: AnyNode, _ tracker: ReadTracker) -> Bool {
    // A run that read a prefix of what the previous one read, in order, and stopped there.
    if tracker.inOrder { tracker.leaveOrder() }
    // The relink stores the inputs in place when as many (a branch that flipped), and then
    // keeps nothing of the array; otherwise the node's inputs, or the queued relink, share it.
    let asMany = node.inputs.count == tracker.recorded.count
    let switchedNow = Engine.switchInputs(of: node, to: Array(tracker.recorded), heldBy: tracker)
    if !switchedNow || !asMany { tracker.recordedMayBeShared = true }
    // Compute again, now that the new inputs' writes come through this domain, when one of
    // them, of another domain, was written between its read and the relink, or was read inside
    // a batch at a value its domain has not delivered (the relink attached it computed from
    // what its inputs delivered). (A relink that waits for its turn delivers a recomputation
    // of its own.)
    let readsAgain =
      switchedNow && (tracker.readUndelivered || tracker.newDependencyChangedSinceRead())
    tracker.clear()
    guard readsAgain else { return false }
    guard sessions.active == nil else {
      Engine.recomputeLater(node)
      return false
    }
    return true
  }

  /// Runs `body`, a computation of `node` on demand (in a pull, which has already checked
  /// that the node is not computing itself: `beginComputing`), as a tracked run. A read on
  /// demand does not relink: the delivery of the write it saw will.
  @usableFromInline
  func trackComputation(of node: AnyNode, _ body: () -> Void) {
    // The inputs, read under the lock, are the run's expected reads: this local keeps them
    // alive until the run's end, so the tracker holds no array of its own to let go of (as
    // a delivered run's tracker reads its node's inputs in place).
    let inputs = node.lockedInputs()
    inputs.withUnsafeBufferPointer { expected in
      let tracker = beginRun(
        mode: .latest, elements: expected.unmanagedElements, count: expected.count,
        deliveredNode: node)
      tracker.setOwner(nil)
      body()
      endRun(tracker)
      // Not relinked, so a write to a new input would not make the cached value stale.
      if tracker.dependenciesChanged {
        if !tracker.versions.isEmpty { computation.pulledValueIsCacheable = false }
      } else {
        computation.pulledReadsMatch = true
      }
      finishRun(tracker)
    }
  }
}
