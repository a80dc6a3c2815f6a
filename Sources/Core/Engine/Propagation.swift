extension Engine {
  /// Delivers a write to a source that has derived nodes; its value is staged. Role.
  ///
  /// The source is the event's only one, kept alive by the caller (the source writing itself),
  /// so no list of sources is needed.
  @usableFromInline
  static func deliverWrite(of source: AnyNode, _ context: ThreadContext) {
    context.withSession { session in
      session.markWritten(source)
      propagate(session, writes: 1, context)
    }
  }

  /// Delivers one event whose sources have their values staged and are listed in
  /// `session.sources`, which keeps them alive until the event is delivered. The caller holds
  /// the drainer role.
  static func deliverEvent(_ session: DrainSession, _ context: ThreadContext) {
    for source in session.sources { session.markWritten(source) }
    propagate(session, writes: session.sources.count, context)
    session.sources.removeAll(keepingCapacity: true)
  }

  /// The body of an event's delivery, once its sources are marked: recompute the affected
  /// derived nodes in rank order, commit every new value under one lock, then run the sinks,
  /// in one invalidation scope.
  @inline(__always)
  static func propagate(_ session: DrainSession, writes: Int, _ context: ThreadContext) {
    let outerSession = context.activeSession
    context.activeSession = session
    while let next = session.popMin() {
      next._withUnsafeGuaranteedRef { node in
        guard node.steps.recompute(node) else { return }
        if !node.isChanged {
          node.isChanged = true
          session.appendChanged(next)
        }
        session.pushDownstream(of: node)
      }
    }
    context.activeSession = outerSession
    let changed = UnsafeBufferPointer(start: session.changed, count: session.changedCount)
    if _fastPath(!session.spansDomains) {
      // The first changed node is a source of the event: its domain is the event's.
      changed[0]._withUnsafeGuaranteedRef { source in
        source.withRootLocked { root in
          for node in changed { node._withUnsafeGuaranteedRef { $0.steps.commit($0) } }
          root.unsettled -= writes
          root.lock.unlock()
        }
      }
    } else {
      // A batch delivering several domains at once: each node commits under its own lock.
      session.spansDomains = false
      for node in changed {
        node._withUnsafeGuaranteedRef { node in
          let root = node.home.lockRoot()
          node.steps.commit(node)
          if node.isSource { root.unsettled -= 1 }
          root.lock.unlock()
        }
      }
    }
    context.beginScope()
    for node in changed {
      node._withUnsafeGuaranteedRef { node in
        node.isChanged = false
        if node.needsDelivery { node.steps.deliver(node, context) }
      }
    }
    session.removeAllChanged()
    context.endScope()
  }

  /// Runs queued work until the domain's queue is empty, then gives up the drainer role.
  @inlinable
  static func finishDrain(of domain: Domain, _ context: ThreadContext) {
    domain.lock.lock()
    if _fastPath(!domain.isForwarded && domain.queue.isEmpty && domain.drainers.more.isEmpty) {
      domain.drainers.first = nil
      domain.reentrantWrites = 0
      domain.lock.unlock()
      return
    }
    domain.lock.unlock()
    drainQueue(of: domain, context)
  }

  /// `finishDrain(of:_:)` when work is queued, or the domain was merged meanwhile.
  @usableFromInline
  static func drainQueue(of domain: Domain, _ context: ThreadContext) {
    while true {
      let root = domain.lockRoot()
      guard !root.queue.isEmpty, root.drainers.count == 1 else {
        // Either nothing is left, or a merge made another thread a drainer too: it goes on.
        root.drainers.remove(context.id)
        if root.drainers.isEmpty { root.reentrantWrites = 0 }
        root.lock.unlock()
        return
      }
      switch root.queue.popFirst()! {
      case .task(let task):
        root.lock.unlock()
        task()
      case .write(let first, var closes):
        context.withSession { session in
          first.stagePending()
          session.sources.append(first)
          while !closes, case .write(let next, let nextCloses)? = root.queue.popFirst() {
            next.stagePending()
            session.sources.append(next)
            closes = nextCloses
          }
          root.lock.unlock()
          deliverEvent(session, context)
        }
      }
    }
  }

  /// Runs `change` as the drainer of `domain`: at once if the role is free (taking it) or
  /// already this thread's, otherwise queued behind the delivery under way.
  package static func performInOrder(in domain: Domain, _ change: @escaping @Sendable () -> Void) {
    let context = ThreadContext.current
    let root = domain.lockRoot()
    if root.drainers.isEmpty {
      root.drainers.append(context.id)
      root.lock.unlock()
      change()
      finishDrain(of: root, context)
    } else if root.isDrained(onlyBy: context) {
      root.lock.unlock()
      change()
    } else {
      root.queue.append(.task(change))
      root.lock.unlock()
    }
  }

  /// Runs `change` as the drainer of `domain` once no event of it is being delivered: at once
  /// if the role is free (taking it), otherwise queued, even behind this thread's own delivery.
  /// Detaching goes this way, so no node leaves the graph in the middle of an event.
  static func performAfterDelivery(in domain: Domain, _ change: @escaping @Sendable () -> Void) {
    let root = domain.lockRoot()
    if root.drainers.isEmpty {
      let context = ThreadContext.current
      root.drainers.append(context.id)
      root.lock.unlock()
      change()
      finishDrain(of: root, context)
    } else {
      root.queue.append(.task(change))
      root.lock.unlock()
    }
  }

  /// Attaches a new derived node to its inputs, in delivery order.
  @usableFromInline
  static func attachInOrder<Value>(_ node: DerivedNode<Value>) {
    performInOrder(in: node.home) { attach(node) }
  }

  /// Connects a new derived node to its inputs. Role.
  static func attach<Value>(_ node: DerivedNode<Value>) {
    let root = node.home.lockRoot()
    var rank = 0
    for input in node.inputs {
      rank = max(rank, input.rank + 1)
      input.downstream.append(node)
      input.handles += 1
    }
    node.rank = rank
    node.isAttached = true
    let inputsCompleted = node.inputs.allSatisfy(\.isCompleted)
    // The value computed at creation describes the state then; recompute it from what the
    // inputs have delivered if a write was on its way then or is now, or landed since.
    let needsRefresh =
      root.unsettled > 0 || !node.creationStamp.settled
      || root.writeCount != node.creationStamp.writes
    root.lock.unlock()
    if needsRefresh { node.refresh() }
    if inputsCompleted { complete(node) }
  }

  /// Disconnects a derived node nothing refers to any more, and then any input left unused.
  /// Role.
  static func detach(_ node: AnyNode) {
    var work: [AnyNode] = [node]
    while let next = work.popLast() {
      let root = next.home.lockRoot()
      guard next.isAttached, next.handles == 0, !next.isSource else {
        root.lock.unlock()
        continue
      }
      next.isAttached = false
      for input in next.inputs {
        if let index = input.downstream.firstIndex(where: { $0 === next }) {
          input.downstream.remove(at: index)
        }
        input.handles -= 1
        if input.handles == 0 { work.append(input) }
      }
      root.lock.unlock()
    }
  }

  /// Completes `node`: runs its completion handlers, releases its sinks, and completes every
  /// downstream node whose inputs have all completed. Role.
  static func complete(_ node: AnyNode) {
    var work: [AnyNode] = [node]
    while let next = work.popLast() {
      let root = next.home.lockRoot()
      guard !next.isCompleted else {
        root.lock.unlock()
        continue
      }
      var released: [Any] = []
      let handlers = next.takeCompletionHandlers(released: &released)
      for candidate in next.downstream where candidate.inputs.allSatisfy(\.isCompleted) {
        work.append(candidate)
      }
      let unused = next.handles == 0 && !next.isSource && next.isAttached
      root.lock.unlock()
      released.removeAll()  // sinks and handlers die here, outside the lock
      let context = ThreadContext.current
      context.beginScope()
      for handler in handlers { handler() }
      context.endScope()
      if unused { detach(next) }
    }
  }
}

extension AnyNode {
  /// Counts a new reference (a Property, a subscription) that keeps this node attached.
  package final func retainHandle() {
    let root = home.lockRoot()
    handles += 1
    root.lock.unlock()
  }

  /// Drops a reference counted by `retainHandle()`; a derived node nothing refers to any more
  /// leaves the graph, so its inputs stop computing it.
  package final func releaseHandle() {
    let root = home.lockRoot()
    let unused = dropHandle()
    root.lock.unlock()
    if unused { detachAfterDelivery() }
  }

  /// `releaseHandle()` for a caller that holds the lock: returns whether the node is now
  /// unused, in which case the caller calls `detachAfterDelivery()` once it has unlocked.
  /// A node whose attaching is still queued counts too: its detach is queued behind it.
  final func dropHandle() -> Bool {
    handles -= 1
    return handles == 0 && !isSource
  }

  /// Takes an unused derived node out of the graph once no event of its domain is delivered.
  final func detachAfterDelivery() {
    Engine.performAfterDelivery(in: home) { [self] in Engine.detach(self) }
  }
}

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
  @discardableResult
  package static func switchInputs(of node: AnyNode, to newInputs: [AnyNode]) -> Bool {
    let context = ThreadContext.current
    let root = Domain.merged([node.home] + newInputs.map(\.home)).lockRoot()
    guard root.isDrained(onlyBy: context) || root.drainers.isEmpty else {
      root.queue.append(
        .task {
          relink(node, to: newInputs, ThreadContext.current)
          node.refresh()
        })
      root.lock.unlock()
      return false
    }
    root.lock.unlock()
    relink(node, to: newInputs, context)
    return true
  }

  /// Moves `node`'s edges to `newInputs` and restores rank order. Role.
  private static func relink(_ node: AnyNode, to newInputs: [AnyNode], _ context: ThreadContext) {
    let root = node.home.lockRoot()
    let oldInputs = node.inputs
    var released: [AnyNode] = []
    if node.isAttached {
      for input in oldInputs {
        if let index = input.downstream.firstIndex(where: { $0 === node }) {
          input.downstream.remove(at: index)
        }
        input.handles -= 1
        if input.handles == 0 { released.append(input) }
      }
      for input in newInputs {
        input.downstream.append(node)
        input.handles += 1
      }
    }
    node.inputs = ContiguousArray(newInputs)
    // Raise ranks so that every node still comes after its inputs.
    var work: [AnyNode] = [node]
    var reranked = false
    while let next = work.popLast() {
      let needed = next.inputs.reduce(0) { max($0, $1.rank + 1) }
      guard needed > next.rank else { continue }
      next.rank = needed
      reranked = true
      for child in next.downstream {
        precondition(
          child !== node,
          """
          A derived value depends on itself: flatMapLatest switched to a property computed \
          from the flatMapLatest itself. Derive the inner property from the sources instead.
          """)
        work.append(child)
      }
    }
    let inputChangesLater = newInputs.contains { $0.isQueued }
    root.lock.unlock()
    if let session = context.activeSession {
      if reranked { session.reorder() }
      if inputChangesLater { session.push(node) }
    }
    for input in released { performAfterDelivery(in: input.home) { detach(input) } }
  }
}
