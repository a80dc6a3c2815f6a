/// A node written from outside the graph: the storage behind relays, `@ReadWrite` and
/// `@ViewInvalidating` projections.
@usableFromInline
package final class SourceNode<Value>: ValueNode<Value>, @unchecked Sendable {
  // Safe: as for AnyNode; each field names its guard.

  /// The newest value written. Lock.
  @exclusivity(unchecked) @usableFromInline var latest: Value
  /// Written values waiting for delivery, oldest first, and their sequence numbers. Lock.
  @exclusivity(unchecked) @usableFromInline var pending = RingBuffer<Value>()
  @exclusivity(unchecked) @usableFromInline var pendingSeqs = RingBuffer<UInt64>()
  /// An object that lives as long as this source: what writes it from outside the graph (a
  /// time operator's state, which holds the source weakly). Set once, before the source is
  /// shared.
  @exclusivity(unchecked) package var owner: (any AnyObject & Sendable)?
  /// `stagePending()`'s work, built where `Value` is known (the initializers are inlinable, as
  /// `NodeSteps` are): run unspecialized, taking a value from `pending` looked up its generic
  /// metadata, about 1,600 instructions a queued write.
  @usableFromInline let stagePendingStep: @Sendable (SourceNode<Value>) -> Void

  /// Creates a source in a domain of its own.
  ///
  /// - Parameter origin: What the source is and where it was made, for traces and messages.
  @inlinable
  package init(_ value: Value, origin: __shared NodeOrigin? = nil) {
    latest = value
    stagePendingStep = { $0.stageOldestPending() }
    super.init(
      home: Domain.make(), value: value, isSource: true,
      steps: Self.steps(recompute: { _ in false }))
    setOrigin(origin)
  }

  /// Creates a source of events in a domain of its own: it rests at `nil` and delivers each
  /// value passed to `emit(_:)` on its own.
  @inlinable
  package init<Event>(events: Event.Type, origin: __shared NodeOrigin? = nil)
  where Value == Event? {
    latest = nil
    stagePendingStep = { $0.stageOldestPending() }
    super.init(
      home: Domain.make(), value: nil, isSource: true, carriesEvents: true,
      steps: Self.eventSteps(recompute: { _ in false }))
    setOrigin(origin)
  }

  deinit {
    // A source that was its domain's only holder (a relay never read together with another)
    // hands the domain to its thread's spares, for the next source made there: one allocation
    // and free fewer per relay made and released (see `SpareDomains`).
    Unmanaged.passUnretained(home)._withUnsafeGuaranteedRef { domain in
      if Engine.isHeldOnce(domain) { Domain.recycle(domain) }
    }
    releaseOwnOrigin()
  }

  /// The newest value written, as `currentValue()` returns it for a source, for callers that
  /// know they hold a source (a relay): no check of the node's kind, and no reference-count
  /// traffic from converting to the superclass.
  ///
  /// - Complexity: One atomic load for plain one-word values (`readsLatestWithoutLock`),
  ///   otherwise one uncontended lock.
  @inlinable
  package final func latestValue() -> Value {
    if Self.readsLatestWithoutLock { return latestWithoutLock() }
    let domain = home
    domain.lock.lock()
    if _fastPath(!domain.isForwarded) {
      let value = latest
      domain.lock.unlock()
      return value
    }
    domain.lock.unlock()
    return pull()
  }

  @usableFromInline override func pull() -> Value {
    let root = home.lockRoot()
    defer { root.lock.unlock() }
    return latest
  }

  /// Writes `value` and, outside a batch, delivers it to every affected sink before returning.
  ///
  /// Inside a batch the value is stored at once and delivered when the outermost batch ends.
  /// While another delivery of this domain is under way (a sink writing back, or another
  /// thread delivering) the value is stored at once and queued for that delivery.
  ///
  /// While a tracer records, the write is traced (see `Tracing`), with `file` and `line` as
  /// the place it was made; otherwise they cost nothing.
  ///
  /// - Complexity: O(affected sinks + affected derived nodes); no allocation once warmed up.
  @inlinable
  package func write(_ value: Value, file: StaticString = #fileID, line: UInt = #line) {
    if _slowPath(Tracing.isOn) {
      writeTraced(value, file: file, line: line)
      return
    }
    ThreadContext.withCurrent { context in
      if _slowPath(context.batch.depth > 0) {
        writeInBatch(value, context)
        return
      }
      // `withRootLocked` spelled out, with the merged domain's case out of line: one function
      // then holds the whole write, where the closure would be a call of its own.
      let domain = home
      domain.lock.lock()
      guard _fastPath(!domain.isForwarded) else {
        write(value, lockedForwardedDomain: domain, context)
        return
      }
      write(value, lockedRoot: domain, context)
    }
  }

  /// `write(_:)` in a domain merged into another, entered with `domain`'s lock held.
  @inlinable @inline(never)
  final func write(_ value: Value, lockedForwardedDomain domain: Domain, _ context: ThreadContext) {
    write(value, lockedRoot: domain.lockForwardedRoot(), context)
  }

  /// `write(_:file:line:)` while a tracer records: the write's cause is kept for its delivery
  /// (or, delivered straight to the sinks, is the cause they run with).
  @usableFromInline
  final func writeTraced(_ value: Value, file: StaticString, line: UInt) {
    let context = ThreadContext.current
    let cause = Tracing.write(of: self, at: TraceSite(file: file, line: line), context)
    if context.batch.depth > 0 {
      let root = home.lockRoot()
      Tracing.noteWrite(cause, of: self, seq: writes.count &+ 1)
      writeInBatch(value, lockedRoot: root, context)
      return
    }
    Tracing.with(cause, context) {
      withRootLocked { root in write(value, lockedRoot: root, context, cause: cause) }
    }
  }

  /// The body of `write(_:)`, entered with `root`'s lock held.
  ///
  /// - Parameter cause: For a traced write, its cause, which a delivery other than straight to
  ///   the sinks takes back (see `Tracing.noteWrite`); `nil`, a constant, for an untraced one.
  @inlinable @inline(__always)
  func write(
    _ value: Value, lockedRoot root: Domain, _ context: ThreadContext, cause: Cause? = nil
  ) {
    // The cascade's test spelled out here and in `emit`: behind a helper taking the body as a
    // closure, `set` cost 209 instructions instead of 205.
    if _slowPath(context.role.hasCascade) {
      writeInCascadeOrder(unlocking: root, context) { root in
        deliverOrQueue(value, lockedRoot: root, context, cause: cause)
      }
      return
    }
    deliverOrQueue(value, lockedRoot: root, context, cause: cause)
  }

  /// `write(_:lockedRoot:_:cause:)` once the order of this thread's sink-made writes is kept:
  /// delivers the write at once if the role is free, otherwise queues it for the drainer.
  @inlinable @inline(__always)
  func deliverOrQueue(
    _ value: Value, lockedRoot root: Domain, _ context: ThreadContext, cause: Cause?
  ) {
    root.assertLockedRoot()
    root.writeCount &+= 1
    writes.count &+= 1
    // Values replaced under the lock are released after it (see ValueNode): their deinit may
    // read this very source. For plain data the swaps are a few moves.
    var previousLatest = value
    replaceLatest(&previousLatest)
    guard root.role.isFree else {
      if let cause { Tracing.noteWrite(cause, of: self, seq: writes.count) }
      writeWhileDelivering(value, lockedRoot: root, context)
      withExtendedLifetime(previousLatest) {}
      return
    }
    Engine.takeRole(of: root, context)
    var previousStaged = value
    swap(&staged, &previousStaged)
    if _fastPath(downstream.isEmpty) {
      // The common case: nothing derived, deliver straight to the sinks.
      var previousDelivered = value
      swap(&delivered, &previousDelivered)
      deliverDirectly(value, lockedRoot: root, context)
      withExtendedLifetime(previousDelivered) {}
    } else if let cause {
      writeThroughDerived(root, context, cause: cause)
    } else {
      writeThroughDerived(root, context)
    }
    withExtendedLifetime((previousLatest, previousStaged)) {}
    Engine.finishDrain(of: root, context)
    #if DEBUG
      Engine.checkLocalInvariants(of: self)
    #endif
  }

  /// Delivers the newest write, `value`, to the sinks of a source nothing is derived from,
  /// holding the role: counts it delivered, then unlocks and runs the sinks.
  @inlinable @inline(__always)
  func deliverDirectly(_ value: Value, lockedRoot root: Domain, _ context: ThreadContext) {
    root.assertRole(context)
    changeCount &+= 1
    writes.delivered = writes.count
    if sinks.isEmpty {
      root.lock.unlock()
    } else {
      let entries = _slowPath(hasCatchingUpSinks) ? sinksCaughtUp() : sinks
      root.lock.unlock()
      runSinks(entries, with: value, context)
    }
  }

  /// `write(_:lockedRoot:_:)` for a source that values are derived from, with the value staged
  /// and the role taken: propagate it. Unlocks. (Out of line, so that the common case's body
  /// stays small enough to be inlined.)
  @usableFromInline
  func writeThroughDerived(_ root: Domain, _ context: ThreadContext) {
    stageForDelivery(unlocking: root, context)
    Engine.deliverWrite(of: self, context, traced: false)
  }

  /// `writeThroughDerived(_:_:)` for a traced write, whose `cause` the delivery takes back.
  @usableFromInline
  func writeThroughDerived(_ root: Domain, _ context: ThreadContext, cause: Cause) {
    Tracing.noteWrite(cause, of: self, seq: writes.count)
    stageForDelivery(unlocking: root, context)
    Engine.deliverWrite(of: self, context, traced: true)
  }

  /// Marks the newest write staged for the delivery this thread is about to run, then unlocks.
  @inline(__always)
  func stageForDelivery(unlocking root: Domain, _ context: ThreadContext) {
    root.assertRole(context)
    hasStaged = true
    writes.staged = writes.count
    root.unsettled += 1
    root.lock.unlock()
  }

  /// `write(_:lockedRoot:_:)` while the role is taken: queue the value for the drainer, and
  /// wait for this thread's turn if the domain is busy with others' changes. Unlocks.
  /// (Specialized where it is called, not inlined: unspecialized, appending to `pending`
  /// looked up its generic metadata, about 1,500 instructions a write.)
  @inlinable @inline(never)
  func writeWhileDelivering(_ value: Value, lockedRoot root: Domain, _ context: ThreadContext) {
    root.assertLockedRoot()
    pending.append(value)
    pendingSeqs.append(writes.count)
    root.unsettled += 1
    let depth = root.cascadeDepth(of: context)
    context.noteQueued(in: root)
    let mustWait = root.enqueue(.write(self, closesEvent: true, depth: depth), from: context)
    root.lock.unlock()
    if mustWait { Engine.waitForTurn(in: home, context) }
  }

  /// `write(_:)` inside a batch: store the value as the newest, and list the source in the
  /// batch the first time the batch writes it.
  ///
  /// Inlinable, so that it is specialized for `Value`: unspecialized, moving the value costs
  /// more through value witnesses than the rest of the write. The root domain is borrowed
  /// (`withRootLocked`), not returned retained as `lockRoot()` would.
  @inlinable @inline(__always)
  func writeInBatch(_ value: Value, _ context: ThreadContext) {
    withRootLocked { root in writeInBatch(value, lockedRoot: root, context) }
  }

  /// `writeInBatch(_:_:)` entered with `root`'s lock held. Unlocks.
  @inlinable @inline(__always)
  func writeInBatch(_ value: Value, lockedRoot root: Domain, _ context: ThreadContext) {
    root.assertLockedRoot()
    var previous = value
    replaceLatest(&previous)
    root.writeCount &+= 1
    writes.count &+= 1
    if writes.lastBatch != context.batch.identity {
      writes.lastBatch = context.batch.identity
      context.batch.touched.append(self)
      root.unsettled += 1
    }
    root.lock.unlock()
    withExtendedLifetime(previous) {}  // released outside the lock
  }

  override func enqueueLatest() {
    assertLocked()
    pending.append(latest)
    pendingSeqs.append(writes.count)
  }

  override func stageLatest() {
    assertRoleLocked()
    // `staged` holds a second reference to `delivered` here, so no value dies under the lock.
    stage(latest)
    writes.staged = writes.count
  }

  override func stagePending() {
    assertRoleLocked()
    stagePendingStep(self)
  }

  /// The body of `stagePending()`, specialized in `stagePendingStep`.
  @inlinable
  final func stageOldestPending() {
    if let value = pending.popFirst() { stage(value) }
    if let seq = pendingSeqs.popFirst() { writes.staged = seq }
  }

  /// Ends the source: it will never change again. Its sinks are released, `values` sequences
  /// finish, and derived nodes whose inputs have all completed complete too.
  ///
  /// Inside a batch the source ends when the batch does, after the batch's writes (this one's
  /// included) have been delivered: an owner released mid-batch does not lose them.
  @inlinable
  package func complete() {
    // The common case, a relay nobody observes going away: nothing to tell anyone, so no
    // delivery in order, just the mark (under the lock, as a delivery would set it).
    // Every test reads a field of a type that is not generic: a relay's `deinit` runs this
    // unspecialized, where testing `sinks` itself would look up the metadata of its generic
    // types, which cost more than the rest of releasing the relay.
    // The root borrowed (`withRootLocked`), not retained as `lockRoot()`'s result is.
    let notBatching = ThreadContext.withCurrent { $0.batch.depth == 0 }
    let completed = withRootLocked { root in
      defer { root.lock.unlock() }
      guard
        notBatching && root.role.isFree && downstream.isEmpty && !hasSinkEntries
          && completions.isEmpty
      else { return false }
      isCompleted = true
      return true
    }
    if !completed { completeInOrder() }
  }

  /// `complete()` for a source that someone observes, or inside a batch.
  @usableFromInline
  final func completeInOrder() {
    let context = ThreadContext.current
    if context.batch.depth > 0 {
      context.batch.completions.append(self)
      return
    }
    Engine.performInOrder(in: home, mayWait: false) { [self] in Engine.complete(self) }
  }
}
