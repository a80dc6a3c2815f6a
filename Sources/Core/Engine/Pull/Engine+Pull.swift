extension AnyNode {
  /// How many writes the node's root domain has taken (`Domain.writeCount`). Takes the lock.
  final var rootWriteCount: UInt64 {
    withRootLocked { root in
      let count = root.writeCount
      root.lock.unlock()
      return count
    }
  }
}

extension Engine {
  /// Computes `target`'s current value from the newest writes, and every stale derived value
  /// it is computed from, each once, inputs first, in a loop: no recursion through the graph,
  /// however deep (a read inside a batch of the end of a chain of 100,000 maps), and no value
  /// computed twice for one read.
  ///
  /// - Returns: The pull's stamp: its root domain's write count when it began.
  /// - Complexity: O(stale nodes + their edges).
  @usableFromInline
  @discardableResult
  static func pullInOrder(_ target: AnyNode) -> UInt64 {
    ThreadContext.withCurrent { context in
      // Marks the nodes this pull visited (`AnyNode.pullCache.mark`): unique across threads, so
      // no set to allocate and hash, and no mark to clear.
      let pull = context.takeUniqueIdentity()
      let (stamp, stampRoot, targetInputs) = target.withRootLocked { root in
        target.pullCache.mark = pull
        let stampAndInputs = (root.writeCount, ObjectIdentifier(root), target.inputs)
        root.lock.unlock()
        return stampAndInputs
      }
      // The pull's stamp applies from here: what the order leaves out as current, it judges
      // by this stamp, not by that of a pull this one is nested in (see
      // `AnyNode.wasPulledInThisPull()`).
      let (outerStamp, outerRoot) = (context.computation.pullStamp, context.computation.pullRoot)
      context.computation.pullStamp = stamp
      context.computation.pullRoot = stampRoot
      let outermostPull = context.computation.outermostPull
      if outermostPull == 0 { context.computation.outermostPull = pull }
      // Post-order over the stale part of the graph: each node after its inputs. The lists
      // are the thread's, reused; a pull nested in this one (a computation reading another
      // domain) finds them taken and makes its own.
      var order = context.pullScratch.order
      var stack = context.pullScratch.stack
      context.pullScratch.order = []
      context.pullScratch.stack = []
      stack.append((target, targetInputs, 0))
      postOrder(&stack, into: &order) { input in
        guard !input.isSource else { return nil }
        return input.withRootLocked { root -> ContiguousArray<AnyNode>? in
          defer { root.lock.unlock() }
          guard input.pullCache.mark != pull else { return nil }
          input.pullCache.mark = pull
          // A first value noting its reads computes values again, each once (see
          // `SourceReadLog`).
          return input.isPullCurrent(root) && !context.recomputesForSourceReads(input)
            ? nil : input.inputs
        }
      }
      if ObservableReads.isAvailable, !context.computation.isInObservationSegment {
        pullInSegment(order, at: stamp, context)
      } else {
        pullEach(order, at: stamp, context)
      }
      context.computation.outermostPull = outermostPull
      context.computation.pullStamp = outerStamp
      context.computation.pullRoot = outerRoot
      order.removeAllKeepingStorage()
      context.pullScratch.order = order
      context.pullScratch.stack = stack
      return stamp
    }
  }

  /// How many times a read computes a value on demand while writes keep landing in the middle
  /// (see `pullConsistently`) before it takes the last one.
  static let consistentPullAttempts = 64

  /// `pullInOrder(_:)` for a read outside any pull, computed again while a write of the
  /// domain landed during the pull, up to `consistentPullAttempts` times. Such a write may have
  /// been read by part of the computation only: a source read directly, and again through a
  /// property computed on demand when the computation reads it (not an input yet: a branch
  /// that flipped), gave a value of two states. Once the domain's write count held still from
  /// the pull's stamp to its end, every source of the domain it read was read at one state. A
  /// pull nested in another is part of that one's check.
  @usableFromInline
  static func pullConsistently(_ target: AnyNode) {
    guard ThreadContext.withCurrent({ $0.computation.outermostPull == 0 }) else {
      pullInOrder(target)
      return
    }
    var attempts = 0
    while true {
      let stamp = pullInOrder(target)
      attempts += 1
      if target.rootWriteCount == stamp || attempts == consistentPullAttempts { return }
    }
  }

  /// Pulls `order` under one Observation tracking (see `recomputeSegment`): if a computation
  /// read an `@Observable` object, the values computed in the segment are not cached (a
  /// change of the object would not move the stamp they are cached for).
  @inline(never)
  static func pullInSegment(_ order: [AnyNode], at stamp: UInt64, _ context: ThreadContext) {
    let didRead = context.runSegment { pullEach(order, at: stamp, context) }
    context.endPulledInSegment(uncaching: didRead)
  }

  /// Pulls each node of `order`, which keeps them alive, borrowed: iterating the array
  /// retained and released each.
  @inline(__always)
  static func pullEach(_ order: [AnyNode], at stamp: UInt64, _ context: ThreadContext) {
    order.withUnsafeBufferPointer { nodes in
      for index in nodes.indices {
        Unmanaged.passUnretained(nodes[index])._withUnsafeGuaranteedRef {
          $0.pullOne(at: stamp, context)
        }
      }
    }
  }

  /// Lets the inputs of `node`, a node being freed, go from a loop rather than from inside its
  /// `deinit`, so freeing a chain takes constant stack: the first half of a derived node's
  /// release (see `DerivedNode.releaseInputsAndClosures()`). The merges the node's links held
  /// together are let go first (`Domain.releaseSpan`). Returns `true` for the outermost call:
  /// the thread is then marked as releasing, the inputs are let go, and the caller lets the
  /// node's closures go and calls `endReleasingInputs(_:)`, which runs the loop. A nested call
  /// (a node freed by the one being freed) lists the inputs for that loop and returns
  /// `false`: the caller lists its closures too (`listForRelease(_:_:)`).
  ///
  /// The closures matter as much as the inputs: a computed property's computation captures the
  /// `Property` it reads, so freeing the closure's context frees that property, its node, and
  /// so on down the chain.
  @usableFromInline
  static func beginReleasingInputs(of node: AnyNode, _ context: ThreadContext) -> Bool {
    if !node.inputs.isEmpty, _slowPath(!node.inputsShareHome) { Domain.releaseSpan(of: node) }
    guard !context.release.isUnderWay else {
      if !node.inputs.isEmpty {
        context.release.pending.append(node.inputs)
        node.inputs = []
      }
      return false
    }
    context.release.isUnderWay = true
    // Every node these free lists what it lets go instead of freeing it.
    node.inputs = []
    return true
  }

  /// Lists `value`, a closure of a node freed by a nested release, for the loop under way.
  @usableFromInline
  static func listForRelease(_ value: Any, _ context: ThreadContext) {
    context.release.pending.append(value)
  }

  /// Ends the release that `beginReleasingInputs(of:_:)` began as the outermost: lets go what
  /// nested releases listed, then marks the thread as no longer releasing.
  @usableFromInline
  static func endReleasingInputs(_ context: ThreadContext) {
    // Tested first: a release that listed nothing (a lone computed property) pays no call.
    if !context.release.pending.isEmpty {
      while let next = context.release.pending.popLast() { _ = next }
    }
    context.release.isUnderWay = false
  }

}

extension ThreadContext {
  /// Runs `body`, a computation on demand, with an answer of its own to whether its value may
  /// be cached (`pulledValueIsCacheable`, which starts `true` and which a read of an input the
  /// node is not linked to clears); returns what `body` returns and that answer, which stays
  /// readable inside `body` too. The enclosing computation's answer is restored after it, and
  /// cleared as well when `propagating` and this one's is `false`: a value not cacheable here
  /// is not cacheable for a computation that read it either (its stamp does not move for those
  /// inputs' writes any more than this one's).
  @inlinable @inline(__always)
  func withOwnCacheability<Result>(
    propagating: Bool, _ body: () -> Result
  ) -> (result: Result, cacheable: Bool) {
    let enclosing = computation.pulledValueIsCacheable
    computation.pulledValueIsCacheable = true
    let result = body()
    let cacheable = computation.pulledValueIsCacheable
    computation.pulledValueIsCacheable = propagating ? enclosing && cacheable : enclosing
    return (result, cacheable)
  }
}

extension Engine {
  /// Tells the pull under way on this thread that the computation running reads a node it
  /// is not linked to (a `flatMapLatest` following, on demand, an inner property it has not
  /// switched to yet): writes to that node do not move the stamp the value would be cached
  /// for, so it is computed again at the next read.
  package static func readsUnlinkedNode() {
    ThreadContext.withCurrent { $0.computation.pulledValueIsCacheable = false }
  }
}

extension Engine {
  /// The write count of `node`'s domain, if the event this thread is delivering is the last
  /// write of that domain still undelivered: the values it delivers are then the newest ones,
  /// and what a read on demand computed at that count from the newest values (a
  /// `flatMapLatest`'s choice of inner property) holds for the delivery too. `nil` otherwise:
  /// later writes wait (their values are newer than the ones delivered), or the event spans
  /// domains. Role.
  package static func newestWriteStamp(deliveredWith node: AnyNode) -> UInt64? {
    node.assertRole()
    guard let session = ThreadContext.current.sessions.active, !session.spansDomains else {
      return nil
    }
    let root = node.home.lockRoot()
    defer { root.lock.unlock() }
    return root.unsettled == session.eventWrites ? root.writeCount : nil
  }
}

extension AnyNode {
  /// The write count of this node's root domain now: what a value computed from the newest
  /// writes is current for, while it does not move. Takes the lock.
  package final var writeStampNow: UInt64 { home.writeStamp().writes }

  /// Whether `input` is one of `inputs`, read under the lock: whether the node is linked to
  /// it, if attached.
  package final func hasInput(_ input: AnyNode) -> Bool {
    withRootLocked { root in
      let found = inputs.contains { $0 === input }
      root.lock.unlock()
      return found
    }
  }

  /// Runs `take` under the lock if a delivery under way on this thread may take the node's
  /// pulled value for its delivered run: computed by a run that read exactly the node's
  /// inputs, at the domain's write count now, while the event delivered is the domain's last
  /// undelivered write. The inputs deliver the values that run read, and the computation
  /// would give the same value again (rule 3: computed once per change).
  @usableFromInline
  final func withDeliverablePulledValue(_ context: ThreadContext, _ take: () -> Void) {
    guard let session = context.sessions.activeReference else { return }
    let eventWrites = session._withUnsafeGuaranteedRef { $0.spansDomains ? -1 : $0.eventWrites }
    guard eventWrites >= 0 else { return }
    withRootLocked { root in
      if pullCache.hasValue && pullCache.readsMatchInputs && pullCache.stamp == root.writeCount
        && root.unsettled == eventWrites
      {
        take()
      }
      root.lock.unlock()
    }
  }

  /// `inputs`, read under the lock (another thread may be the drainer relinking them).
  final func lockedInputs() -> ContiguousArray<AnyNode> {
    withRootLocked { root in
      let inputs = self.inputs
      root.lock.unlock()
      return inputs
    }
  }
}
