extension Engine {
  /// Delivers a write to a source that has derived nodes; its value is staged. Role.
  ///
  /// The source is the event's only one, kept alive by the caller (the source writing itself),
  /// so no list of sources is needed. Inlined into its two callers, `writeThroughDerived` for
  /// an untraced write and for a traced one; `traced` is a constant in each.
  @inline(__always)
  static func deliverWrite(of source: AnyNode, _ context: ThreadContext, traced: Bool) {
    source.assertRole()
    context.withSession { session in
      session.markWritten(source)
      propagate(session, writes: 1, context, traced: traced)
    }
  }

  /// Delivers one event whose sources have their values staged and are listed in
  /// `session.sources`, which keeps them alive until the event is delivered. The caller holds
  /// the drainer role.
  static func deliverEvent(_ session: DrainSession, _ context: ThreadContext) {
    for source in session.sources { session.markWritten(source) }
    if _slowPath(Tracing.isOn) {
      propagate(session, writes: session.sources.count, context, traced: true)
    } else {
      propagate(session, writes: session.sources.count, context, traced: false)
    }
    // Not `removeAll(keepingCapacity:)`, whose generic range replacement costs more than a
    // batch of one write's whole commit.
    session.sources.removeAllKeepingStorage()
  }

  /// Recomputes `node` as an event of its own and delivers what changes, to its sinks and
  /// downstream: how a node relinked after the delivery that switched it catches up, so its
  /// subscribers hear of it. Role.
  static func deliverRecomputation(of node: AnyNode, _ context: ThreadContext) {
    node.assertRole()
    context.withSession { session in
      session.push(node)
      propagate(session, writes: 0, context, traced: Tracing.isOn)
    }
  }

  /// The body of an event's delivery, once its sources are marked: recompute the affected
  /// derived nodes in rank order, commit every new value under one lock, then run the sinks,
  /// in one invalidation scope.
  ///
  /// `traced`, a constant wherever this is inlined, gives each changed node its causes and
  /// runs its sinks with them (see `Tracing`); the untraced copy has no trace of it.
  @inline(__always)
  static func propagate(
    _ session: DrainSession, writes: Int, _ context: ThreadContext, traced: Bool
  ) {
    let outerSession = context.sessions.activeReference
    context.sessions.activeReference = Unmanaged.passUnretained(session)
    session.eventWrites = writes
    while let next = session.popMin() {
      if next._withUnsafeGuaranteedRef({ $0.observableReads == .noneSeen }),
        ObservableReads.isAvailable
      {
        recomputeSegment(startingWith: next, session, context)
        continue
      }
      recomputeStep(next, session)
    }
    context.sessions.activeReference = outerSession
    // An event of derived nodes only (`deliverRecomputation`) may change nothing.
    guard _fastPath(session.changedCount > 0) else {
      detachReleasedIfAny(by: session, context)
      return
    }
    let changed = UnsafeBufferPointer(start: session.changed, count: session.changedCount)
    // Taken before the commit: a source's `writes.staged` names the writes it delivers.
    let causes = traced ? Tracing.causes(ofChanged: changed) : nil
    if _fastPath(!session.spansDomains) {
      // The first changed node is a source of the event: its domain is the event's.
      changed[0]._withUnsafeGuaranteedRef { source in
        source.withRootLocked { root in
          for node in changed { node._withUnsafeGuaranteedRef { $0.steps.commit($0) } }
          root.unsettled -= writes
          if _slowPath(root.hasCommitWork) { root.finishCommit() }
          root.lock.unlock()
        }
      }
    } else {
      // A batch delivering several domains at once: each node commits under its own lock.
      // (Sources come first in `changed`, so they commit before the nodes derived from them.)
      session.spansDomains = false
      for node in changed {
        node._withUnsafeGuaranteedRef { node in
          let root = node.home.lockRoot()
          node.steps.commit(node)
          if node.isSource { root.unsettled -= 1 }
          root.lock.unlock()
        }
      }
      // Once every domain has committed (see `Domain.catchingUpNodes`, `finishCommit`).
      for node in changed where node._withUnsafeGuaranteedRef({ $0.isSource }) {
        node._withUnsafeGuaranteedRef { node in
          let root = node.home.lockRoot()
          if root.hasCommitWork { root.finishCommit() }
          root.lock.unlock()
        }
      }
    }
    context.beginScope()
    if traced {
      let outerCause = context.trace.cause
      for (index, node) in changed.enumerated() {
        node._withUnsafeGuaranteedRef { node in
          node.isChanged = false
          context.trace.cause = causes.unsafelyUnwrapped[index]
          if node.needsDelivery { node.steps.deliver(node, context) }
        }
      }
      context.trace.cause = outerCause
    } else {
      for node in changed {
        node._withUnsafeGuaranteedRef { node in
          node.isChanged = false
          if node.needsDelivery { node.steps.deliver(node, context) }
        }
      }
    }
    #if DEBUG
      let first = changed[0]
    #endif
    session.removeAllChanged()
    context.endScope()
    #if DEBUG
      if checksInvariants {
        first._withUnsafeGuaranteedRef { checkInvariants(around: $0, session: session) }
      }
    #endif
    // An event node that found several events in this one (see `Engine+FollowUps.swift`).
    if _slowPath(!session.followUps.isEmpty) { deliverFollowUps(session, context) }
    detachReleasedIfAny(by: session, context)
  }

  /// `detachReleased(by:_:)` if the event's relinks let inputs go, once its follow-ups are
  /// delivered too (a follow-up's propagation, which ends first, leaves them).
  @inline(__always)
  static func detachReleasedIfAny(by session: DrainSession, _ context: ThreadContext) {
    if _slowPath(!session.released.isEmpty) && !session.isDeliveringFollowUps {
      detachReleased(by: session, context)
    }
  }

  /// Detaches the inputs that the relinks of the event just delivered let go, the event being
  /// the thread's outermost delivery (`session`, the primary): what `detachAfterDelivery(_:)`
  /// queued ahead of the queue, done where the drainer would have taken it, as it delivers
  /// nothing in between, with no queue entry and no drain to deliver it. A node whose
  /// attachment is still queued, or of a domain another thread drains too (merged in the
  /// event), goes through `detachAfterDelivery(_:)` as before.
  @inline(never)
  static func detachReleased(by session: DrainSession, _ context: ThreadContext) {
    // Borrowed from the list, which keeps them alive and which nothing here changes (a relink
    // appends to it, in a propagation's recomputations).
    session.released.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        buffer.unmanagedElements.unsafelyUnwrapped[index]._withUnsafeGuaranteedRef { node in
          node.withRootLocked { root in
            guard !node.awaitsAttachment, root.isDrained(onlyBy: context) else {
              root.lock.unlock()
              detachAfterDelivery(node)
              return
            }
            detach(node, lockedRoot: root)
          }
        }
      }
    }
    session.released.removeAllKeepingStorage()
  }

  /// Recomputes `next`, a node popped from the work list, and queues what is computed from it
  /// if its value changed.
  @inline(__always)
  static func recomputeStep(_ next: Unmanaged<AnyNode>, _ session: DrainSession) {
    next._withUnsafeGuaranteedRef { node in
      node.assertDelivering(ThreadContext.current)
      // A parked branch is not computed by writes (see Engine+Parking.swift).
      if _slowPath(node.isParked) && !reachParked(node) { return }
      guard node.steps.recompute(node) else { return }
      // Queued again by its own run (relinked to an input that changes later in this event):
      // the next run decides whether it changed, and what is computed from it hears of that
      // run's value only, not of this one's (which an equal second value would take back).
      if _slowPath(node.isQueued) { return }
      if !node.isChanged {
        node.isChanged = true
        session.appendChanged(next)
      }
      session.pushDownstream(of: node)
    }
  }

  /// Runs queued work until the domain's queue is empty, then gives up the drainer role.
  @inlinable @inline(__always)
  static func finishDrain(of domain: Domain, _ context: ThreadContext) {
    domain.lock.lock()
    #if DEBUG
      // (A domain merged into another meanwhile is checked by `drainQueue`, on its root.)
      if !domain.isForwarded { domain.assertRole(context) }
    #endif
    if _fastPath(leaveRoleIfIdle(domain, context)) {
      domain.lock.unlock()
      return
    }
    domain.lock.unlock()
    drainQueue(of: domain, context)
  }

  /// The quiet end of a drain, entered holding the lock of `domain`: if it is a root with
  /// nothing queued and this thread its only drainer, gives the role up and returns `true`;
  /// otherwise returns `false`, the role kept (`drainQueue` then does the rest). The lock is
  /// held either way.
  @inlinable @inline(__always)
  static func leaveRoleIfIdle(_ domain: Domain, _ context: ThreadContext) -> Bool {
    guard !domain.isForwarded && domain.queue.isEmpty && domain.role.leaveIfAlone() else {
      return false
    }
    context.role.held -= 1
    return true
  }

  /// `finishDrain(of:_:)` when work is queued, or the domain was merged meanwhile.
  ///
  /// Delivers the changes queued when it starts; meanwhile the domain is closing, so writers
  /// that may wait queue their change and wait for their turn. Then it hands the role to the
  /// first of them, who delivers the rest; with nobody waiting, it goes on until the queue is
  /// empty (what is queued now comes from deliveries under way on other threads, or from this
  /// thread's own sinks).
  ///
  /// The last drainer to leave a quiet domain first cuts off what no link joins any more
  /// (`Domain.splitZeroEdges`): the role it gives up is the root's, which a split leaves a
  /// root, and it touches the domain no more.
  ///
  /// A thread in the middle of a computation (a pull that attached a node it made, holding the
  /// role it found free) drains with the computation set aside: what others queued is not
  /// part of it (see `ThreadContext.withComputationSetAside(_:)`).
  @usableFromInline
  static func drainQueue(of domain: Domain, _ context: ThreadContext) {
    if _slowPath(context.isComputing) {
      context.withComputationSetAside { drainQueueAsIs(of: domain, context) }
    } else {
      drainQueueAsIs(of: domain, context)
    }
  }

  /// `drainQueue(of:_:)`, on the thread's state as it is.
  static func drainQueueAsIs(of domain: Domain, _ context: ThreadContext) {
    var pass = DrainPass()
    while true {
      let root = domain.lockRoot()
      let step = root.role.nextStep(
        of: context.id, queueCount: root.queue.count,
        hasSplitCandidates: !root.splitCandidates.isEmpty, pass: &pass)
      switch step {
      case .deliverNext:
        break
      case .handOver(let successor):
        root.lock.unlock()
        context.role.held -= 1
        context.leftRole(of: root, drained: domain)
        successor._withUnsafeGuaranteedRef {
          $0.role.wasHanded = true
          $0.role.parkerStorage!.unpark()
        }
        return
      case .leave:
        // Either nothing is left, or a merge made another thread a drainer too: it goes on.
        let cut = root.mustSplitBeforeLeaving ? root.splitZeroEdges() : []
        let released = root.role.leave(context.id)
        root.lock.unlock()
        context.role.held -= 1
        context.leftRole(of: root, drained: domain)
        for waiter in released {
          waiter._withUnsafeGuaranteedRef { $0.role.parkerStorage!.unpark() }
        }
        withExtendedLifetime(cut) {}  // the domains cut off are let go outside the lock
        return
      }
      let outerDepth = context.role.eventDepth
      switch root.queue.popFirst()! {
      case .detach(let node):
        // Under the lock already held when the node's home is the root itself (the common
        // case): `detach(_:)` would take it again. (A node whose domain was merged or split
        // off since it was queued finds its root there.)
        guard node.home === root else {
          root.lock.unlock()
          detach(node)
          break
        }
        detach(node, lockedRoot: root)
      case .task(let task, let depth):
        root.lock.unlock()
        context.role.eventDepth = depth
        task()
      case .write(let first, var closes, let depth):
        context.role.eventDepth = depth
        context.withSession { session in
          first.stagePending()
          session.sources.append(first)
          while !closes, case .write(let next, let nextCloses, _)? = root.queue.popFirst() {
            next.stagePending()
            session.sources.append(next)
            closes = nextCloses
            pass.countDelivered()
          }
          root.lock.unlock()
          deliverEvent(session, context)
        }
      }
      context.role.eventDepth = outerDepth
    }
  }

  /// Waits, holding no drainer role, until this thread's turn in `domain` comes: either the
  /// drainer handed it the role, and it delivers what is queued (its own change included), or
  /// the queue emptied, its change delivered by others. Call after `Domain.enqueue` asked for
  /// it, with the lock released.
  @usableFromInline
  static func waitForTurn(in domain: Domain, _ context: ThreadContext) {
    context.parker.park()
    guard context.role.wasHanded else { return }
    context.role.wasHanded = false
    context.role.held += 1
    drainQueue(of: domain, context)
  }

  /// `waitForTurn(in:_:)` for a batch that queued its changes in a busy domain while it could
  /// not wait (it held the roles of the other domains it wrote); it holds none now. Waits only
  /// if the domain is still busy with others' changes.
  static func waitForTurnAfterBatch(in domain: Domain, _ context: ThreadContext) {
    let root = domain.lockRoot()
    // A free role means an empty queue: the batch's changes are delivered.
    guard !root.role.isFree, root.isBusyWithOthers else {
      root.lock.unlock()
      return
    }
    _ = root.role.queued(by: context, holdsRoles: false, queueCount: root.queue.count)
    root.lock.unlock()
    waitForTurn(in: domain, context)
  }

  /// Takes the free drainer role of `root`, whose lock the caller holds.
  @inlinable @inline(__always)
  static func takeRole(of root: Domain, _ context: ThreadContext) {
    root.assertLockedRoot()
    root.role.take(by: context.id)
    context.role.held += 1
  }

  /// Runs `change` as the drainer of `domain`: at once if the role is free (taking it) or
  /// already this thread's, otherwise queued behind the delivery under way.
  ///
  /// - Parameter mayWait: Whether the caller may wait for its turn when the domain is busy
  ///   with others' changes (see ``Domain``); `false` where values are released (a `deinit`
  ///   should not block).
  package static func performInOrder(
    in domain: Domain, mayWait: Bool = true, _ change: @escaping @Sendable () -> Void
  ) {
    let context = ThreadContext.current
    let root = domain.lockRoot()
    if runHoldingRoleIfFree(lockedRoot: root, context, change) {
      return
    } else if root.isDrained(onlyBy: context) {
      root.lock.unlock()
      change()
    } else if mayWait {
      let mustWait = root.enqueue(
        .task(change, depth: root.cascadeDepth(of: context)), from: context)
      root.lock.unlock()
      if mustWait { waitForTurn(in: domain, context) }
    } else {
      root.queue.append(.task(change, depth: root.cascadeDepth(of: context)))
      root.lock.unlock()
    }
  }

  /// Detaches `node` (`detach(_:)`) as the drainer of its domain once no event of it is being
  /// delivered: at once if the role is free (taking it), otherwise queued, even behind this
  /// thread's own delivery, so no node leaves the graph in the middle of an event. It never
  /// waits: it runs when values are released, wherever that happens. Nothing is allocated
  /// either way (queued, it is a `QueuedChange.detach`, not a task's closure).
  ///
  /// Queued, it goes ahead of the queue: the node has no sink, no handle and nothing derived
  /// from it, so when it leaves is seen by nobody, while every change delivered before it
  /// recomputes it. (Behind the queue, under writers that keep a domain busy, the inner
  /// properties a `flatMapLatest` made and dropped piled up to a thousand, each recomputed by
  /// every write.) A node whose attachment is still queued is detached behind it.
  ///
  /// The inputs a relink lets go inside the thread's outermost delivery (a computed
  /// property's branch that flipped) skip the queue: its session keeps them until the event
  /// ends (`detachReleased(by:_:)`), the same place, with no drain to deliver them.
  static func detachAfterDelivery(_ node: AnyNode) {
    ThreadContext.withCurrent { context in
      node.withRootLocked { root in
        guard root.role.isFree else {
          if node.awaitsAttachment {
            root.queue.append(.detach(node))
          } else {
            root.queue.prepend(.detach(node))
          }
          root.lock.unlock()
          return
        }
        detachTakingFreeRole(node, lockedRoot: root, context) { root.lock.unlock() }
      }
    }
  }

  /// `detachAfterDelivery(_:)` at once, entered holding `root`, the node's root, whose role is
  /// free: takes the role and detaches the node under that lock, and leaves the role under it
  /// too when that is all there was to do (no input left unused, nothing queued): one lock
  /// taken, not the three of taking the role, detaching and finishing the drain. `unlock` lets
  /// the lock go: the caller's own work under it (a subscription's end removes its sink), last.
  /// The root is borrowed: the node keeps its domain, and so its root, alive.
  @inline(__always)
  static func detachTakingFreeRole(
    _ node: AnyNode, lockedRoot root: Domain, _ context: ThreadContext, unlock: () -> Void
  ) {
    takeRole(of: root, context)
    var work: [AnyNode] = []
    let detached = detachLocked(node, root, leavingUnused: &work)
    let left = work.isEmpty && leaveRoleIfIdle(root, context)
    unlock()
    #if DEBUG
      if detached { checkDetached(node) }
    #endif
    guard !left else { return }
    detachUnused(&work)
    finishDrain(of: root, context)
  }

  /// If the role of `root` (locked) is free: takes it, unlocks, runs `body`, finishes the drain
  /// (delivering what others queued meanwhile) and returns `true`. Otherwise returns `false`
  /// with the lock still held. The common case of every change made in delivery order, with
  /// nothing to allocate.
  @inline(__always)
  static func runHoldingRoleIfFree(
    lockedRoot root: Domain, _ context: ThreadContext, _ body: () -> Void
  ) -> Bool {
    guard root.role.isFree else { return false }
    takeRole(of: root, context)
    root.lock.unlock()
    body()
    finishDrain(of: root, context)
    return true
  }
}
