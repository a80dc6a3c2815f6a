// A batch's writes: stored at once, counted unsettled, and delivered when the outermost batch
// ends as one coalesced event per domain (then each event of an event source on its own).

extension ThreadContext {
  /// Queues one event per domain holding the batch's latest values, then every event the batch
  /// emitted, each on its own and in order, then delivers the domains whose drainer role is
  /// free: state first, then the events.
  func commitBatch() {
    if _slowPath(role.hasCascade) {
      commitBatchInCascadeOrder()
      return
    }
    commitBatchNow()
  }

  /// `commitBatch()` once the order of this thread's sink-made writes is kept (see
  /// `commitBatchInCascadeOrder`).
  func commitBatchNow() {
    if batch.touched.count == 1 && batch.events.isEmpty {
      commitOneWrite()
      return
    }
    var touched: ContiguousArray<AnyNode> = []
    swap(&touched, &batch.touched)
    // Group by domain, keeping first-write order within each group.
    var groups: [(root: Domain, nodes: [AnyNode])] = []
    for node in touched {
      let root = node.home.lockRoot()
      root.lock.unlock()
      if let index = groups.firstIndex(where: { $0.root === root }) {
        groups[index].nodes.append(node)
      } else {
        groups.append((root, [node]))
      }
    }
    touched.removeAllKeepingStorage()
    swap(&touched, &batch.touched)
    // Take every free drainer role, and queue the batch's event in every domain whose role is
    // taken, before delivering anything: a sink that writes into another domain of the batch
    // is then queued behind the batch's writes there, not delivered ahead of them.
    // The domains this thread claims are delivered together, as one event: a switch
    // (`flatMapLatest`) that merges two of them mid-delivery then reads the batch's values on
    // both sides, and each sink runs once for the whole batch.
    // A thread that held no role may have to wait for its turn in a busy domain; it does so
    // once it holds none again (waiting while holding a role could deadlock).
    var claimed: [Domain] = []
    var waits: [Domain] = []
    let mayWait = role.held == 0
    withSession { session in
      for group in groups {
        let root = group.nodes[0].home.lockRoot()
        if root.role.isFree {
          Engine.takeRole(of: root, self)
          claimed.append(root)
          for node in group.nodes {
            node.stageLatest()
            session.sources.append(node)
          }
        } else {
          let depth = root.cascadeDepth(of: self)
          noteQueued(in: root)
          for (index, node) in group.nodes.enumerated() {
            node.enqueueLatest()
            let closes = index == group.nodes.count - 1
            root.queue.append(.write(node, closesEvent: closes, depth: depth))
          }
          if mayWait && root.isBusyWithOthers { waits.append(root) }
        }
        root.lock.unlock()
      }
      queueBatchEvents(claiming: &claimed, waits: &waits, mayWait: mayWait)
      if !session.sources.isEmpty {
        session.spansDomains = claimed.count > 1
        Engine.deliverEvent(session, self)
      }
    }
    for root in claimed { Engine.finishDrain(of: root, self) }
    for domain in waits { Engine.waitForTurnAfterBatch(in: domain, self) }
  }

  /// `commitBatch()` for a batch that wrote one source and emitted no event, the common case:
  /// the same steps, with nothing to group and nothing allocated.
  private func commitOneWrite() {
    let node = batch.touched.removeLast()
    let root = node.home.lockRoot()
    guard root.role.isFree else {
      node.enqueueLatest()
      root.queue.append(.write(node, closesEvent: true, depth: root.cascadeDepth(of: self)))
      noteQueued(in: root)
      let mustWait = role.held == 0 && root.isBusyWithOthers
      root.lock.unlock()
      if mustWait { Engine.waitForTurnAfterBatch(in: root, self) }
      return
    }
    Engine.takeRole(of: root, self)
    withSession { session in
      node.stageLatest()
      session.sources.append(node)
      root.lock.unlock()
      session.spansDomains = false
      Engine.deliverEvent(session, self)
    }
    Engine.finishDrain(of: root, self)
  }

  /// Queues the events of the batch that just ended, in the order they were emitted, taking
  /// the free drainer role of their domains (their queue is delivered when the role is given
  /// up); notes the busy domains the thread may have to wait for.
  private func queueBatchEvents(
    claiming claimed: inout [Domain], waits: inout [Domain], mayWait: Bool
  ) {
    guard !batch.events.isEmpty else { return }
    var events: [(source: AnyNode, queue: () -> Void)] = []
    swap(&events, &batch.events)
    for (source, queue) in events {
      let root = source.home.lockRoot()
      if root.role.isFree {
        Engine.takeRole(of: root, self)
        claimed.append(root)
      }
      queue()
      root.queue.append(.write(source, closesEvent: true, depth: root.cascadeDepth(of: self)))
      if mayWait && !root.isDrained(onlyBy: self) && root.isBusyWithOthers
        && !waits.contains(where: { $0 === root })
      {
        waits.append(root)
      }
      root.lock.unlock()
    }
    events.removeAllKeepingStorage()
    swap(&events, &batch.events)
  }

  /// Completes the sources whose owners went away inside the batch that just ended.
  func completeAfterBatch() {
    var nodes: [AnyNode] = []
    swap(&nodes, &batch.completions)
    for node in nodes {
      Engine.performInOrder(in: node.home, mayWait: false) { Engine.complete(node) }
    }
  }
}
