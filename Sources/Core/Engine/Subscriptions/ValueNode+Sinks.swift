extension ValueNode {
  // MARK: Sinks: catching up, and cancelling

  /// The sinks to give the change being committed: all but the subscriptions still catching
  /// up (see `catchingUp`), whose records go once every source upstream has delivered the
  /// write they started from. A change that brings exactly that state is skipped too. Lock,
  /// after the change's sources have committed.
  @usableFromInline
  final func sinksCaughtUp() -> ContiguousArray<SinkEntry<Value>> {
    assertLocked()
    var skipped: [UInt64] = []
    catchingUp.removeAll { record in
      let (caughtUp, same) = record.progress(home: home)
      if !caughtUp || same { skipped.append(record.id) }
      // A record holding sources is dropped by the commit's end, which lets them go outside
      // the lock (`Domain.dropCaughtUpRecords`).
      return caughtUp && record.readBeyondLinks.isEmpty
    }
    hasCatchingUpSinks = !catchingUp.isEmpty
    if skipped.isEmpty { return sinks }
    return sinks.filter { !skipped.contains($0.id) }
  }

  /// `NodeSteps.removeSinkAndUnlock` for this node.
  @inlinable
  final func removeSinkAndUnlock(id: UInt64, root: Domain, recordDropped: Bool = false) -> Bool {
    root.assertLockedRoot()
    // The identifier may be taken again (a token's address once it is freed, a bag's slot
    // once the bag is emptied): a new subscription must not inherit this one's record.
    if _slowPath(hasCatchingUpSinks) && !recordDropped {
      return removeSinkDroppingRecordAndUnlock(id: id, root: root)
    }
    var completion: (@Sendable () -> Void)?
    if !completions.isEmpty, let index = completions.firstIndex(where: { $0.id == id }) {
      completion = completions.remove(at: index).handler
    }
    // The newest subscription first, inline: cancelling is mostly newest first.
    let last = sinks.count &- 1
    guard let index = last >= 0 && sinks[last].id == id ? last : sinkIndex(of: id) else {
      root.lock.unlock()
      return false
    }
    var removed: SinkEntry<Value>
    if _fastPath(index == sinks.count - 1) {
      removed = sinks.removeLast()
      if _slowPath(deadSinks > 0) { dropTrailingTombstones() }
    } else {
      removed = SinkEntry(id: 0, sink: { _ in })
      swap(&removed, &sinks[index])
      buryTombstone(at: index)
    }
    root.lock.unlock()
    // They die here, outside the lock.
    withExtendedLifetime(removed) {}
    withExtendedLifetime(completion) {}
    return true
  }

  /// `removeSinkAndUnlock(id:root:)` for a node with catching-up records: drops the one of
  /// `id`, and lets the sources it held go once unlocked.
  @usableFromInline
  final func removeSinkDroppingRecordAndUnlock(id: UInt64, root: Domain) -> Bool {
    let retired = dropCatchUpRecord(of: id, root: root)
    let removed = removeSinkAndUnlock(id: id, root: root, recordDropped: true)
    withExtendedLifetime(retired) {}
    return removed
  }

  /// Forgets the catching-up record of the subscription `id`, which ended. Lock.
  @usableFromInline
  final func dropCatchUpRecord(of id: UInt64, root: Domain) -> [AnyNode] {
    root.assertLockedRoot()
    var retired: [AnyNode] = []
    removeRecords(retiring: &retired) { $0.id == id }
    // Not kept listed for nothing: the list holds the node, and the node its domain.
    if !hasCatchingUpSinks { root.catchingUpNodes.removeAll { $0 === self } }
    return retired
  }

  /// Removes the records `isDropped` picks, adding the sources they held to `retired`, to be
  /// let go outside the lock. Lock.
  final func removeRecords(
    retiring retired: inout [AnyNode], where isDropped: (CatchUpRecord) -> Bool
  ) {
    assertLocked()
    catchingUp.removeAll { record in
      guard isDropped(record) else { return false }
      for read in record.readBeyondLinks { retired.append(read.source) }
      return true
    }
    hasCatchingUpSinks = !catchingUp.isEmpty
  }

  /// Whether every source of `record` has delivered the write it waits for. Lock.
  @inline(__always)
  final func isCaughtUp(_ record: CatchUpRecord) -> Bool { record.progress(home: home).caughtUp }

  /// The index of the sink `id`, searching from both ends (subscriptions are mostly cancelled
  /// newest first, or in subscription order).
  @inlinable
  final func sinkIndex(of id: UInt64) -> Int? {
    var front = firstLiveSink
    var back = sinks.count - 1
    while front <= back {
      if sinks[back].id == id { return back }
      if sinks[front].id == id { return front }
      front += 1
      back -= 1
    }
    return nil
  }

  /// Counts the tombstone just left at `index`, skips it if it leads, and compacts the array
  /// once tombstones are the majority. Lock.
  @usableFromInline
  final func buryTombstone(at index: Int) {
    assertLocked()
    deadSinks += 1
    if index == firstLiveSink {
      while firstLiveSink < sinks.count && sinks[firstLiveSink].id == 0 { firstLiveSink += 1 }
    }
    if deadSinks > 8 && deadSinks * 2 > sinks.count {
      sinks.removeAll { $0.id == 0 }
      deadSinks = 0
      firstLiveSink = 0
    }
  }

  /// Removes the tombstones left at the end after the last sink was removed. Lock.
  @usableFromInline
  final func dropTrailingTombstones() {
    assertLocked()
    while let last = sinks.last, last.id == 0 {
      sinks.removeLast()
      deadSinks -= 1
    }
    if sinks.isEmpty { firstLiveSink = 0 }
    firstLiveSink = min(firstLiveSink, sinks.count)
  }
}

extension Domain {
  /// Drops the records that the delivery just committed has caught up, from the nodes it did
  /// not change (see `catchingUpNodes`), and forgets the nodes left with none. Lock.
  @usableFromInline
  func dropCaughtUpRecords() {
    assertLockedRoot()
    var retired: [AnyNode] = []
    catchingUpNodes.removeAll { !$0.dropCaughtUpRecords(retiring: &retired) }
    // The sources the records held are let go by the drainer once unlocked, in order.
    if !retired.isEmpty {
      queue.append(.task({ [retired] in withExtendedLifetime(retired) {} }, depth: 0))
    }
  }
}
