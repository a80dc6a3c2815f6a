/// A node that carries a value of type `Value`.
///
/// **No user value dies under the lock.** A value, a sink closure or a node may hold anything,
/// including a `Property` or `SubscriptionToken` of the same domain whose `deinit` takes the lock
/// again. So whatever the engine overwrites or removes while holding the lock is moved out and
/// released after unlocking. Between events `staged` holds a second reference to `delivered`,
/// so overwriting `staged` under the lock never ends a value's life; the value it replaced is
/// let go in `deliverCommitted(_:)`, outside the lock.
@usableFromInline
package class ValueNode<Value>: AnyNode, @unchecked Sendable {
  // Safe: as for AnyNode; each field names its guard.

  /// The value every sink has been (or is being) given. Written by the role under the lock;
  /// read by the role freely and by others under the lock.
  @exclusivity(unchecked) @usableFromInline final var delivered: Value
  /// The value computed for the event under delivery, until committed (`hasStaged`). Role.
  @exclusivity(unchecked) @usableFromInline final var staged: Value
  @exclusivity(unchecked) @usableFromInline final var hasStaged = false
  /// Subscriptions, in subscription order. Lock.
  ///
  /// A subscription cancelled from the middle leaves a tombstone (identifier 0, a closure that
  /// does nothing) rather than shifting the rest; the last one is removed outright, with the
  /// tombstones before it. `deadSinks` counts the tombstones and `firstLiveSink` skips the
  /// leading ones, so cancelling in subscription order or in reverse costs O(1) each, and the
  /// array is compacted once tombstones are the majority.
  @exclusivity(unchecked) @usableFromInline final var sinks: ContiguousArray<SinkEntry<Value>> = []
  {
    didSet { hasSinkEntries = !sinks.isEmpty }
  }
  /// Whether `sinks` has entries (tombstones count): what `SourceNode.complete()` tests, which
  /// runs in a relay's `deinit`, unspecialized, where testing the array itself looks up the
  /// metadata of its generic types, most of what releasing a relay cost. Lock.
  @exclusivity(unchecked) @usableFromInline final var hasSinkEntries = false
  @exclusivity(unchecked) @usableFromInline final var deadSinks = 0
  @exclusivity(unchecked) @usableFromInline final var firstLiveSink = 0
  /// Handlers to run when the node completes. Lock.
  @exclusivity(unchecked) @usableFromInline final var completions:
    [(id: UInt64, handler: @Sendable () -> Void)] =
      []
  /// Sinks captured at commit for the delivery under way. Role.
  @exclusivity(unchecked) @usableFromInline final var committedSinks:
    ContiguousArray<SinkEntry<Value>>?
  /// Subscriptions that started from a value newer than the one delivered so far, with the
  /// sources it was computed from and their write sequence numbers then: until every one of
  /// them has delivered that write, a change delivered to such a subscription would be older
  /// than what it already has, so it skips it (and the change that brings exactly its first
  /// state, a repeat). See `CatchUpRecord`. Lock.
  @exclusivity(unchecked) @usableFromInline final var catchingUp: [CatchUpRecord] = []
  /// Whether `catchingUp` has entries: the delivery paths test this flag. Lock.
  @exclusivity(unchecked) @usableFromInline final var hasCatchingUpSinks = false

  @inlinable
  init(home: Domain, value: Value, isSource: Bool, carriesEvents: Bool = false, steps: NodeSteps) {
    delivered = value
    staged = value
    // An event node always has a delivery step: it forgets the event after delivering it.
    super.init(
      home: home, isSource: isSource, holdsPlainData: _isPOD(Value.self) && !carriesEvents,
      carriesEvents: carriesEvents, steps: steps)
  }

  /// The steps of a node of this type, with `recompute` supplied by the kind of node.
  @inlinable
  static func steps(recompute: @escaping @Sendable (AnyNode) -> Bool) -> NodeSteps {
    NodeSteps(
      recompute: recompute,
      commit: { unsafeDowncast($0, to: ValueNode<Value>.self).commitStaged() },
      deliver: { unsafeDowncast($0, to: ValueNode<Value>.self).deliverCommitted($1) },
      removeSinkAndUnlock: {
        unsafeDowncast($0, to: ValueNode<Value>.self).removeSinkAndUnlock(id: $1, root: $2)
      })
  }

  /// The steps of an event node (one whose value is `nil` at rest): after its sinks ran, the
  /// delivery step lets the event go, so no event outlives its delivery.
  @inlinable
  static func eventSteps<Event>(recompute: @escaping @Sendable (AnyNode) -> Bool) -> NodeSteps
  where Value == Event? {
    NodeSteps(
      recompute: recompute,
      commit: { unsafeDowncast($0, to: ValueNode<Value>.self).commitStaged() },
      deliver: {
        let node = unsafeDowncast($0, to: ValueNode<Value>.self)
        node.deliverCommitted($1)
        node.forgetEvent()
      },
      removeSinkAndUnlock: {
        unsafeDowncast($0, to: ValueNode<Value>.self).removeSinkAndUnlock(id: $1, root: $2)
      })
  }

  /// Lets the event just delivered go: the node rests at `nil` again. Role.
  @usableFromInline
  final func forgetEvent<Event>() where Value == Event? {
    assertDelivering(ThreadContext.current)
    var event: Value = nil
    staged = nil
    let root = home.lockRoot()
    swap(&delivered, &event)
    root.lock.unlock()
    withExtendedLifetime(event) {}  // the event dies here, outside the lock
  }

  /// The value for a derived node computing in `mode`.
  @inlinable
  package final func read(_ mode: _ReadMode) -> Value {
    switch mode {
    case .delivery: return hasStaged ? staged : delivered
    case .latest:
      // A first value being computed notes the writes of the sources it reads, and whether it
      // read another domain's derived values (see `SourceReadLog`); every other read pays a
      // test of the thread's context.
      if _slowPath(ThreadContext.notesSourceReads) { return readNotingSources() }
      return currentValue()
    }
  }

  /// `read(mode)` of a node held unretained, as a static function: inside a parameter-pack
  /// expansion a closure is not specialized, a call to this is.
  @inlinable @inline(__always)
  package static func read(_ node: Unmanaged<ValueNode<Value>>, _ mode: _ReadMode) -> Value {
    node._withUnsafeGuaranteedRef { $0.read(mode) }
  }

  /// `changeCount`, counting the change staged for the event under delivery, if any. Role.
  @inlinable
  package final var changeCountIncludingStaged: UInt64 {
    hasStaged ? changeCount &+ 1 : changeCount
  }

  /// Sets the value computed for the event under delivery. Role.
  @inlinable @inline(__always)
  package final func stage(_ value: Value) {
    staged = value
    hasStaged = true
  }

  /// The node's current value: the newest write for a source, or the derived value computed
  /// from the newest writes. Safe from any thread.
  ///
  /// - Complexity: For a source of a plain one-word value, one atomic load (see
  ///   `SourceNode.readsLatestWithoutLock`); otherwise one uncontended lock, unless a derived
  ///   value must be recomputed because a write is still on its way to it.
  @inlinable
  package final func currentValue() -> Value {
    if SourceNode<Value>.readsLatestWithoutLock && isSource {
      return unsafeDowncast(self, to: SourceNode<Value>.self).latestWithoutLock()
    }
    let domain = home
    domain.lock.lock()
    if _fastPath(!domain.isForwarded) {
      if isSource {
        let value = unsafeDowncast(self, to: SourceNode<Value>.self).latest
        domain.lock.unlock()
        return value
      }
      if deliveredFollowsInputs && domain.unsettled == 0 {
        let value = delivered
        domain.lock.unlock()
        return value
      }
    }
    domain.lock.unlock()
    if isSource { return pull() }
    return unsafeDowncast(self, to: DerivedNode<Value>.self).pullValue()
  }

  /// `currentValue()` the slow way: through a forwarded domain, or by recomputing.
  @usableFromInline
  func pull() -> Value { fatalError("ValueNode subclasses override pull()") }

  /// Publishes the staged value and captures the sinks to run. Role, under the lock, after the
  /// sources of the change have committed.
  @inlinable @inline(__always)
  final func commitStaged() {
    assertRoleLocked()
    if hasStaged {
      if _isPOD(Value.self) {
        // Nothing to release: a plain copy, and `staged` already equals `delivered`.
        delivered = staged
      } else {
        // The previous value moves to `staged`, to be released outside the lock.
        swap(&delivered, &staged)
      }
      hasStaged = false
      changeCount &+= 1
      if isSource { writes.delivered = writes.staged }
      if !sinks.isEmpty {
        committedSinks = _slowPath(hasCatchingUpSinks) ? sinksCaughtUp() : sinks
        hasCommittedSinks = true
      }
    }
  }

  /// Runs the sinks captured by `commitStaged()`. Role, outside the lock. (Always inlined into
  /// the node's delivery step, whose call is then the only one.)
  @inlinable @inline(__always)
  final func deliverCommitted(_ context: ThreadContext) {
    assertDelivering(context)
    // Lets the previous value go, outside the lock; a plain value has nothing to let go, and
    // `commitStaged()` left `staged` equal to `delivered` already.
    if !_isPOD(Value.self) { staged = delivered }
    guard hasCommittedSinks else { return }
    hasCommittedSinks = false
    // Taken as an optional: no empty array to make, which unspecialized code would have to
    // look up the element type's metadata for.
    let entries = committedSinks
    committedSinks = nil
    if let entries { runSinks(entries, with: delivered, context) }
  }

  /// Runs `entries` in order with `value`, skipping any cancelled on this thread meanwhile.
  /// (Always inlined: a call of its own costs a write straight to the sinks a twentieth.)
  @inlinable @inline(__always)
  final func runSinks(
    _ entries: ContiguousArray<SinkEntry<Value>>, with value: Value, _ context: ThreadContext
  ) {
    assertUnlocked()
    context.beginScope()
    for entry in entries {
      if _slowPath(!context.scope.cancelledDuringDelivery.isEmpty), wasCancelled(entry, context) {
        continue
      }
      entry.sink(value)
    }
    context.endScope()
  }

  /// Whether the sink of `entry` was cancelled on this thread since the delivery captured it.
  ///
  /// An identifier is a token's address, which a new token may take once the cancelled one is
  /// gone; a sink registered since then under the same identifier has its own closure, so
  /// both are compared.
  @usableFromInline
  final func wasCancelled(_ entry: SinkEntry<Value>, _ context: ThreadContext) -> Bool {
    guard context.scope.cancelledDuringDelivery.contains(ObjectIdentifier(self)) else {
      return false
    }
    let root = home.lockRoot()
    defer { root.lock.unlock() }
    return !sinks.contains { $0.isIdentical(to: entry) }
  }

  override final var liveSinkCount: Int { sinks.count - deadSinks }

  override final func dropCaughtUpRecords(retiring retired: inout [AnyNode]) -> Bool {
    assertLocked()
    removeRecords(retiring: &retired) { isCaughtUp($0) }
    return hasCatchingUpSinks
  }

  override final var hasListeners: Bool { hasSinkEntries || !completions.isEmpty }

  override final func takeCompletionHandlers(
    released: inout [Any]
  ) -> [@Sendable () -> Void] {
    assertRoleLocked()
    isCompleted = true
    let handlers = completions.map(\.handler)
    released.append(completions)
    released.append(sinks)
    completions = []
    sinks = []
    deadSinks = 0
    firstLiveSink = 0
    return handlers
  }

  #if DEBUG
    override final func checkValueInvariants() {
      Engine.check(!hasStaged, "a node left with a staged value between events")
      Engine.check(!hasCommittedSinks && committedSinks == nil, "captured sinks left over")
      let tombstones = sinks.filter { $0.id == 0 }.count
      Engine.check(deadSinks == tombstones, "deadSinks \(deadSinks), tombstones \(tombstones)")
      Engine.check(sinks.last.map { $0.id != 0 } ?? true, "a tombstone last among the sinks")
      Engine.check(
        firstLiveSink <= sinks.count && sinks[..<firstLiveSink].allSatisfy { $0.id == 0 },
        "firstLiveSink \(firstLiveSink) skips a live sink")
      Engine.check(hasCatchingUpSinks == !catchingUp.isEmpty, "hasCatchingUpSinks out of date")
      Engine.check(hasSinkEntries == !sinks.isEmpty, "hasSinkEntries out of date")
    }

    override final func checkCatchUpInvariants(_ root: Domain) {
      guard hasCatchingUpSinks && !isSource else { return }
      Engine.check(
        root.catchingUpNodes.contains { $0 === self },
        "a node with catching-up records not listed in its domain")
      Engine.check(
        !catchingUp.contains { isCaughtUp($0) }, "a caught-up record left after its delivery")
    }
  #endif
}
