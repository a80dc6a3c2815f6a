// Subscribing to a node: the first value, registration in delivery order, catching up, and
// resuming a suspended node for its first subscriber. (`Property.subscribe` and kin call in.)

extension ValueNode {
  /// Registers `sink`, in subscription order, and returns the token that ends it.
  ///
  /// - Parameters:
  ///   - emitsCurrentValue: Whether `sink` is called at once with the value as delivered so far.
  ///   - onCompletion: Called once when the node completes (its sources are gone), or at once
  ///     if it already has. Not called after the subscription is cancelled.
  @inlinable
  package func subscribe(
    emitsCurrentValue: Bool,
    onCompletion: (@Sendable () -> Void)? = nil,
    _ sink: @escaping @Sendable (Value) -> Void
  ) -> SubscriptionToken {
    // Inlinable so that the common case (nobody is delivering) is specialized for `Value`;
    // unspecialized, the generic metadata lookups cost more than the locking. The thread's
    // context and the domain are borrowed, not retained.
    let token = SubscriptionToken(node: self)
    let entry = SinkEntry(id: token.id, sink: sink)
    ThreadContext.withCurrent { context in
      withRootLocked { root in
        register(entry, .token(token), lockedRoot: root, emitsCurrentValue, onCompletion, context)
      }
    }
    #if DEBUG
      Engine.checkLocalInvariants(of: self)
    #endif
    return token
  }

  /// Registers `sink`, in subscription order, as one of `bag`'s subscriptions.
  ///
  /// - Parameters:
  ///   - beforeRegistering: Run once the subscription is in the bag, before it is registered:
  ///     where a signal gives the sink its `startWith` events, so that a `cancelAll()` from
  ///     them ends this subscription too. Its argument tells whether the subscription has
  ///     ended since (the bag emptied): no further event is given then.
  ///   - Others: As for `subscribe(emitsCurrentValue:onCompletion:_:)`.
  @inlinable
  package func subscribe(
    in bag: SubscriptionBag, emitsCurrentValue: Bool,
    onCompletion: (@Sendable () -> Void)? = nil,
    beforeRegistering: (_ hasEnded: () -> Bool) -> Void = { _ in },
    _ sink: @escaping @Sendable (Value) -> Void
  ) {
    let (id, generation) = bag.reserve(self)
    beforeRegistering { bag.hasEnded(generation) }
    let entry = SinkEntry(id: id, sink: sink)
    ThreadContext.withCurrent { context in
      withRootLocked { root in
        register(
          entry, .bag(bag, generation: generation), lockedRoot: root, emitsCurrentValue,
          onCompletion, context)
      }
    }
    #if DEBUG
      Engine.checkLocalInvariants(of: self)
    #endif
  }

  /// The body of `subscribe`, entered with `root` locked.
  ///
  /// A bag's subscription is first claimed from the bag, which may have ended it already; a
  /// token's cannot have ended before it is returned.
  @inlinable @inline(__always)
  func register(
    _ entry: SinkEntry<Value>, _ owner: SubscriptionOwner, lockedRoot root: Domain,
    _ emitsCurrentValue: Bool, _ onCompletion: (@Sendable () -> Void)?, _ context: ThreadContext
  ) {
    root.assertLockedRoot()
    if case .bag(let bag, let generation) = owner, !bag.claim(entry.id, generation: generation) {
      root.lock.unlock()
      return
    }
    keepAliveCount += 1
    guard _fastPath(root.role.isFree) else {
      subscribeDuringDelivery(entry, owner, root, emitsCurrentValue, onCompletion, context)
      return
    }
    Engine.takeRole(of: root, context)
    // The root to register under borrowed, as `root` is (see `resumeForSubscriber`).
    guard let locked = resumedIfSuspended(lockedRoot: root, owner, beforeReturning: true) else {
      Engine.finishDrain(of: root, context)
      return
    }
    let (value, completed) = locked._withUnsafeGuaranteedRef { locked in
      defer { locked.lock.unlock() }
      return register(entry, onCompletion, locked)
    }
    start(entry, value, emitsCurrentValue, completed ? onCompletion : nil, context)
    Engine.finishDrain(of: root, context)
  }

  /// `subscribe` while a delivery of the domain is under way, entered with `root` locked:
  /// registers at once on the delivering thread, otherwise queues the registration behind it.
  @usableFromInline
  func subscribeDuringDelivery(
    _ entry: SinkEntry<Value>, _ owner: SubscriptionOwner, _ root: Domain,
    _ emitsCurrentValue: Bool, _ onCompletion: (@Sendable () -> Void)?, _ context: ThreadContext
  ) {
    if root.isDrained(onlyBy: context) {
      guard let locked = resumedIfSuspended(lockedRoot: root, owner, beforeReturning: true) else {
        return
      }
      let (value, completed) = locked._withUnsafeGuaranteedRef { root in
        defer { root.lock.unlock() }
        return register(entry, onCompletion, root)
      }
      start(entry, value, emitsCurrentValue, completed ? onCompletion : nil, context)
    } else if emitsCurrentValue {
      root.lock.unlock()
      subscribeWhileOthersDeliver(entry, owner, onCompletion, context)
    } else {
      let task: @Sendable () -> Void = { [self] in
        let root = home.lockRoot()
        guard !owner.hasEnded() else {
          root.lock.unlock()
          return
        }
        guard let locked = resumedIfSuspended(lockedRoot: root, owner)?.takeUnretainedValue() else {
          return
        }
        let (value, completed) = register(entry, onCompletion, locked)
        locked.lock.unlock()
        start(
          entry, value, emitsCurrentValue, completed ? onCompletion : nil, ThreadContext.current)
      }
      let mustWait = root.enqueue(.task(task, depth: root.cascadeDepth(of: context)), from: context)
      root.lock.unlock()
      if mustWait { Engine.waitForTurn(in: home, context) }
    }
  }

  /// `subscribe` with a first value while another thread delivers the domain, entered with no
  /// lock held: the sink gets its first value here, on the subscriber's thread, before
  /// `subscribe` returns (rule 11), and is registered in delivery order after that.
  ///
  /// The sink cannot run twice at once: it is called here before it is registered, and by a
  /// drainer only once the registration (queued after that call returned) has run. The
  /// registration compares the delivered state with the one the first value came from: a newer
  /// one delivered in between is given to the sink at once, and an older one still on its way
  /// is skipped (a catching-up record), so the sink never goes back to an older value.
  @usableFromInline
  func subscribeWhileOthersDeliver(
    _ entry: SinkEntry<Value>, _ owner: SubscriptionOwner,
    _ onCompletion: (@Sendable () -> Void)?, _ context: ThreadContext
  ) {
    assertUnlocked()
    let computed = firstValueOutsideTheRole()
    // Not delivered: the value the node was made with, from the newest writes while others'
    // kept landing, which may mix two states of one source. The drainer's instead, once it has
    // attached the node.
    guard
      let first = computed.isDelivered
        ? computed : deliveredValueInOrder(owner, context, otherwise: computed)
    else { return }
    context.beginScope()
    entry.sink(first.value)
    context.endScope()
    let task: @Sendable () -> Void = { [self] in
      let root = home.lockRoot()
      guard !owner.hasEnded() else {
        root.lock.unlock()
        return
      }
      guard let locked = resumedIfSuspended(lockedRoot: root, owner)?.takeUnretainedValue() else {
        return
      }
      let (newer, completed) = registerAfterFirstValue(entry, onCompletion, first, locked)
      locked.lock.unlock()
      let context = ThreadContext.current
      if let newer {
        context.beginScope()
        entry.sink(newer)
        context.endScope()
      }
      if completed { onCompletion?() }
    }
    // Now, as the drainer, if the other delivery ended meanwhile; otherwise in its turn.
    Engine.performInOrder(in: home, task)
  }

  /// A new subscriber's first value, taken by a thread that does not hold the role: the
  /// current value (from the newest writes), the write sequence numbers of the sources
  /// upstream it reflects, and the node's change count then. Should other threads' writes
  /// keep landing while it is computed, the value delivered so far instead (`upstream` nil).
  @usableFromInline
  func firstValueOutsideTheRole() -> FirstValue<Value> {
    let context = ThreadContext.current
    for _ in 0..<4 {
      let (stamp, rootThen) = withRootLocked { root in
        defer { root.lock.unlock() }
        return (root.writeCount, root)
      }
      let (value, reads) = context.loggingSourceReads(of: self, in: rootThen) { currentValue() }
      let root = home.lockRoot()
      if root.writeCount == stamp {
        let upstream = upstreamWriteSeqs()
        let beyond = reads.readsBeyond(upstream, ofTreeOf: root)
        let changeCount = changeCount
        root.lock.unlock()
        withExtendedLifetime(reads) {}
        return FirstValue(
          value: value, upstream: upstream, readBeyondLinks: beyond, splits: reads.splits,
          changeCount: changeCount)
      }
      root.lock.unlock()
      withExtendedLifetime(reads) {}
    }
    let root = home.lockRoot()
    defer { root.lock.unlock() }
    return FirstValue(
      value: delivered, upstream: nil, changeCount: changeCount,
      isDelivered: !awaitsAttachment && !isRefreshing && !(isSuspended && !suspension.settled))
  }

  /// The value delivered so far, read by the domain's drainer in its turn, once the queued
  /// attachment of the node (made while others delivered) has run, and what resuming it for
  /// the subscriber computes: a value the drainer computed from delivered values, unlike the
  /// one the node was made with. `nil` if the subscription ended meanwhile.
  ///
  /// The calling thread waits for that turn, as a writer waits for its own: not while it holds
  /// a role, computes, or runs a batch, where waiting could deadlock or the delivered value is
  /// not what it reads. There it takes `made`, the value the node was made with, as before.
  @usableFromInline
  func deliveredValueInOrder(
    _ owner: SubscriptionOwner, _ context: ThreadContext, otherwise made: FirstValue<Value>
  ) -> FirstValue<Value>? {
    guard context.role.held == 0, !context.isComputing, context.batch.depth == 0 else {
      return made
    }
    let handOff = FirstValueHandOff<Value>()
    let task: @Sendable () -> Void = { [self] in
      defer { handOff.parker.unpark() }
      let root = home.lockRoot()
      guard !owner.hasEnded() else {
        root.lock.unlock()
        return
      }
      guard let locked = resumedIfSuspended(lockedRoot: root, owner)?.takeUnretainedValue() else {
        return
      }
      handOff.value = FirstValue(value: delivered, upstream: nil, changeCount: changeCount)
      locked.lock.unlock()
    }
    Engine.performInOrder(in: home, task)
    handOff.parker.park()
    return handOff.value
  }

  /// The sources upstream of this node (itself, for a source) and their newest write's
  /// sequence number. Lock: inputs move only under it, so the walk sees one graph.
  final func upstreamWriteSeqs() -> [(source: Unmanaged<AnyNode>, seq: UInt64)] {
    assertLocked()
    var upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)] = []
    var seen: Set<ObjectIdentifier> = []
    var work: [AnyNode] = [self]
    while let node = work.popLast() {
      guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
      if node.isSource {
        upstream.append((Unmanaged.passUnretained(node), node.writes.count))
      } else {
        work.append(contentsOf: node.inputs)
      }
    }
    return upstream
  }

  /// Registers a subscriber that was given `first` already; returns the value to give it now
  /// (a change delivered since, newer than `first`), and whether the node has completed.
  /// Lock; role.
  @usableFromInline
  func registerAfterFirstValue(
    _ entry: SinkEntry<Value>, _ onCompletion: (@Sendable () -> Void)?, _ first: FirstValue<Value>,
    _ root: Domain
  ) -> (newer: Value?, completed: Bool) {
    root.assertRole(ThreadContext.current)
    if isCompleted { return (first.changeCount == changeCount ? nil : delivered, true) }
    sinks.append(entry)
    if let onCompletion { completions.append((entry.id, onCompletion)) }
    guard let upstream = first.upstream else {
      // It started from the delivered value: whatever committed since is newer.
      return (first.changeCount == changeCount ? nil : delivered, false)
    }
    // The sources read beyond the links in this root's tree may have left it if a split
    // happened since (see `SourceReadLog`): then the record asks where they are.
    let record = CatchUpRecord(
      id: entry.id, upstream: upstream,
      readBeyondLinks: SplitCount.load() == first.splits
        ? first.readBeyondLinks : first.readBeyondLinks.map(\.afterSplit))
    let (caughtUp, same) = record.progress(home: home)
    if !caughtUp {
      // Writes older than the first value are still on their way: skip their deliveries.
      keepCatchingUp(record, root)
      return (nil, false)
    }
    // Every write it reflects is delivered; a change committed since came from newer ones.
    return (!same && first.changeCount != changeCount ? delivered : nil, false)
  }

  /// `root`, locked, if the node is neither suspended nor a parked branch; otherwise
  /// unretained either way (see `resumeForSubscriber`).
  ///
  /// - Parameter beforeReturning: Whether `subscribe` is still to return, registering
  ///   synchronously: a token's subscription cannot have ended then, and is not checked.
  @inlinable @inline(__always)
  func resumedIfSuspended(
    lockedRoot root: Domain, _ owner: SubscriptionOwner, beforeReturning: Bool = false
  ) -> Unmanaged<Domain>? {
    // Suspended, or a parked branch (a write may have reached it: see Engine+Parking.swift):
    // one test of the linkage.
    guard _slowPath(!linkage.isDisjoint(with: [.suspended, .parked])) else {
      return Unmanaged.passUnretained(root)
    }
    return resumeForSubscriber(
      lockedRoot: root, owner, mayHaveEnded: !beforeReturning || owner.mayEndBeforeReturning)
  }

  /// Attaches the node, suspended while nothing observed it, for a subscriber that comes to
  /// it (see `Engine.resume`). Entered with the root locked, and left with the root it returns
  /// locked (computing the node again may merge its domain with others); role.
  ///
  /// Returns `nil`, unlocked, if the subscription was ended while the lock was let go (its
  /// token cancelled or its bag emptied on another thread): it must not be registered then.
  /// Not asked unless `mayHaveEnded` (the owner's lock is one more to take).
  ///
  /// The root is returned unretained: while its lock is held, the chain from the node's home
  /// to it stands still (a split needs that lock), and keeps it alive.
  @usableFromInline
  func resumeForSubscriber(
    lockedRoot root: Domain, _ owner: SubscriptionOwner, mayHaveEnded: Bool
  ) -> Unmanaged<Domain>? {
    root.assertRole(ThreadContext.current)
    root.lock.unlock()
    Engine.resume(self)
    return withRootLocked { root in
      guard mayHaveEnded, owner.hasEnded() else { return Unmanaged.passUnretained(root) }
      root.lock.unlock()
      return nil
    }
  }

  /// Adds the entry unless the node has completed; returns the value to start with (`nil`:
  /// compute it, outside the lock) and whether the node had already completed. Lock.
  ///
  /// A subscriber starts from the current value, which is newer than the delivered one while a
  /// write waits for delivery; it then skips the deliveries that would give it an older value
  /// (see `catchingUp`).
  @inlinable
  func register(
    _ entry: SinkEntry<Value>, _ onCompletion: (@Sendable () -> Void)?, _ root: Domain
  ) -> (Value?, completed: Bool) {
    root.assertLockedRoot()
    if isCompleted { return (delivered, true) }
    if sinks.capacity == 0 {
      // The first sink: its storage made for it alone, as an array literal's (a growing
      // append, which copies the old storage over, cost twice as much), and no larger (most
      // nodes have one subscriber).
      sinks = [entry]
    } else {
      if sinks.count == sinks.capacity {
        // Grow by a quarter rather than double: a node with many subscribers wastes at most a
        // fifth of its sinks' storage.
        sinks.reserveCapacity(sinks.count + sinks.count / 4 + 4)
      }
      sinks.append(entry)
    }
    if let onCompletion { completions.append((entry.id, onCompletion)) }
    guard _slowPath(root.unsettled > 0) else { return (delivered, false) }
    guard isSource else { return (nil, false) }
    // A source: start from the newest write, and skip the deliveries of it and older ones.
    if writes.count != writes.delivered {
      catchingUp.append(
        CatchUpRecord(id: entry.id, upstream: [(Unmanaged.passUnretained(self), writes.count)]))
      hasCatchingUpSinks = true
    }
    return (unsafeDowncast(self, to: SourceNode<Value>.self).latest, false)
  }

  /// The first value of a new subscriber of a derived node while writes wait for delivery:
  /// the value computed from the newest writes, consistent with the stamp its subscription
  /// catches up from (see `catchingUp`), so that no later delivery is older than it.
  ///
  /// Computing is retried while other threads' writes land during it; should they keep
  /// landing, the subscriber starts from the value delivered so far instead, and catches up
  /// with every delivery after it: an older first value, but never an older one after a newer.
  /// The caller is the domain's drainer, so no delivery runs meanwhile.
  @usableFromInline
  func firstValueWhileUnsettled(subscription id: UInt64) -> Value {
    assertRole()
    let context = ThreadContext.current
    for _ in 0..<4 {
      let (stamp, rootThen) = withRootLocked { root in
        defer { root.lock.unlock() }
        return (root.writeCount, root)
      }
      let (value, reads) = context.loggingSourceReads(of: self, in: rootThen) { currentValue() }
      let root = home.lockRoot()
      if root.writeCount == stamp {
        // No write landed while computing: the value is that of the sources' newest writes.
        addCatchUpRecord(id, root, reads)
        root.lock.unlock()
        withExtendedLifetime(reads) {}
        return value
      }
      root.lock.unlock()
      withExtendedLifetime(reads) {}
    }
    let root = home.lockRoot()
    let delivered = delivered
    root.lock.unlock()
    return delivered
  }

  /// For a new subscriber of a derived node that is not given a first value (a change stream):
  /// skip the deliveries of writes made before it subscribed.
  @usableFromInline
  func recordCatchUp(subscription id: UInt64) {
    let root = home.lockRoot()
    addCatchUpRecord(id, root, nil)
    root.lock.unlock()
  }

  /// Records that subscription `id` starts from the state of every upstream source's newest
  /// write (see `catchingUp`), unless it ended since it was registered (cancelled on another
  /// thread, or its bag emptied): a record left for it would outlive it, and its identifier
  /// can be taken again. Lock; the caller is the domain's drainer (inputs are stable, and a
  /// subscription registered on another thread meanwhile waits behind it).
  final func addCatchUpRecord(_ id: UInt64, _ root: Domain, _ reads: SourceReadLog?) {
    root.assertRole(ThreadContext.current)
    guard sinkIndex(of: id) != nil else { return }
    let upstream = upstreamWriteSeqs()
    let record = CatchUpRecord(
      id: id, upstream: upstream,
      readBeyondLinks: reads?.readsBeyond(upstream, ofTreeOf: root) ?? [])
    // Nothing on its way that the value reflects: every delivery from now on is newer.
    guard !record.progress(home: home).caughtUp else { return }
    keepCatchingUp(record, root)
  }

  /// Adds `record`, of a subscription that still has older writes to skip, listing the node in
  /// the domain so that the record is dropped once caught up even if no delivery changes the
  /// node. Lock.
  final func keepCatchingUp(_ record: CatchUpRecord, _ root: Domain) {
    root.assertLockedRoot()
    if !root.catchingUpNodes.contains(where: { $0 === self }) { root.catchingUpNodes.append(self) }
    catchingUp.append(record)
    hasCatchingUpSinks = true
  }

  /// Gives a new subscriber its first value, and its completion if the node already ended.
  @inlinable
  func start(
    _ entry: SinkEntry<Value>, _ value: Value?, _ emitsCurrentValue: Bool,
    _ completionNow: (@Sendable () -> Void)?, _ context: ThreadContext
  ) {
    assertUnlocked()
    if value == nil && !emitsCurrentValue { recordCatchUp(subscription: entry.id) }
    if emitsCurrentValue {
      let first = value ?? firstValueWhileUnsettled(subscription: entry.id)
      context.beginScope()
      entry.sink(first)
      context.endScope()
    }
    completionNow?()
  }
}
