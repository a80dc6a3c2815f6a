/// A node whose value is computed from other nodes: the engine behind `map`, `combineLatest`,
/// `removeDuplicates`, `filter` and `flatMapLatest`.
///
/// The operator supplies `compute(mode, previous)`: read the inputs with `read(mode)` and return
/// the new value, or `nil` to keep `previous` and notify nobody (how `removeDuplicates` and
/// `filter` hold back a change). It is called with `previous == nil` exactly once, at creation,
/// and must return a value then.
///
/// A derived node is recomputed at most once per delivered change, after all of its inputs
/// (nodes are visited in rank order), which is what makes the graph glitch-free.
@usableFromInline
package final class DerivedNode<Value>: ValueNode<Value>, @unchecked Sendable {
  // Safe: the closures are immutable and `@Sendable`; other state as for AnyNode.

  /// The operator's computation, as described above.
  /// A `var` only so that `deinit` can move it out (see `releaseInputsAndClosures()`); never
  /// changed otherwise.
  @exclusivity(unchecked) @usableFromInline final var compute:
    @Sendable (_ mode: _ReadMode, _ previous: Value?) -> Value?
  /// A computed property's body (`ComputedBody<Value>`), which `compute` owns, unretained: the
  /// delivery step, a pull and a refresh call it through this, borrowed (`runCompute`), where
  /// a call of `compute`, a `var`, copies the closure and so retains and releases its context,
  /// an atomic pair at every run. `nil` for the other operators.
  @exclusivity(unchecked) @usableFromInline final var computedBody: Unmanaged<AnyObject>?
  /// Runs the computation: a computed property's body borrowed (see `computedBody`), another
  /// operator's `compute`.
  @inlinable @inline(__always)
  final func runCompute(_ mode: _ReadMode, _ previous: Value?) -> Value? {
    guard let body = computedBody else { return compute(mode, previous) }
    return body._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: ComputedBody<Value>.self).compute(mode, previous)
    }
  }

  /// The domain's write count, and whether it was settled, when the first value was computed.
  @usableFromInline let creationStamp: (writes: UInt64, settled: Bool)

  /// Creates a node computed from `inputs` and attaches it to the graph.
  ///
  /// The domains of the inputs are merged (see `Domain.home(over:)`), and stay merged while the
  /// node lives. If another thread is delivering that domain, the node is attached in order
  /// after the current delivery; until then its value is computed on demand from its inputs'
  /// newest values.
  @inlinable
  package convenience init(
    inputs: [AnyNode], origin: __shared NodeOrigin? = nil,
    compute: @escaping @Sendable (_ mode: _ReadMode, _ previous: Value?) -> Value?
  ) {
    self.init(inputs: inputs, origin: origin, compute: compute) { node in
      let node = unsafeDowncast(node, to: DerivedNode<Value>.self)
      guard let value = node.compute(.delivery, node.delivered) else { return false }
      node.stage(value)
      return true
    }
  }

  /// Creates a node computed from `inputs` with a delivery step of the operator's own, and
  /// attaches it to the graph.
  ///
  /// - Parameter deliver: The delivery step: compute in `.delivery` mode and return
  ///   ``stage(_:on:)`` of the result, or `false` to hold the change back. An operator that
  ///   never holds a change back (`map`, `combineLatest`) saves a call per delivery this way;
  ///   the other initializer's step calls `compute`.
  @inlinable
  package convenience init(
    inputs: [AnyNode], origin: __shared NodeOrigin? = nil,
    compute: @escaping @Sendable (_ mode: _ReadMode, _ previous: Value?) -> Value?,
    deliver: @escaping @Sendable (AnyNode) -> Bool
  ) {
    self.init(
      inputs: inputs, origin: origin, compute: compute, steps: Self.steps(recompute: deliver),
      carriesEvents: false)
  }

  /// Creates a node of events (see `ValueNode.eventSteps`) computed from `inputs` and attaches
  /// it to the graph: `compute` returns `.some(nil)` at creation, and in `.delivery` mode the
  /// event for the change delivered, `.some(event)`, or `nil` for none. The node rests at `nil`
  /// and lets each event go once delivered.
  @inlinable
  package convenience init<Event>(
    eventInputs inputs: [AnyNode], origin: __shared NodeOrigin? = nil,
    compute: @escaping @Sendable (_ mode: _ReadMode, _ previous: Value?) -> Value?
  ) where Value == Event? {
    let steps = Self.eventSteps(recompute: { node in
      let node = unsafeDowncast(node, to: DerivedNode<Value>.self)
      guard let value = node.compute(.delivery, nil) else { return false }
      node.stage(value)
      return true
    })
    self.init(inputs: inputs, origin: origin, compute: compute, steps: steps, carriesEvents: true)
  }

  @inlinable
  init(
    inputs: [AnyNode], origin: __shared NodeOrigin?,
    compute: @escaping @Sendable (_ mode: _ReadMode, _ previous: Value?) -> Value?,
    steps: NodeSteps, carriesEvents: Bool
  ) {
    if inputs.isEmpty { Engine.misuse("A derived value needs at least one input property.") }
    let home = Domain.home(over: inputs)
    // Taken before the first value is computed: if a write lands between now and the
    // attachment, the attachment recomputes the value.
    var stamp = home.writeStamp()
    // A first value that read a value computed from inputs it is not linked to (a suspended
    // computed property whose branch flipped) is not described by the stamp: the attachment
    // recomputes it from what the inputs delivered, as it does after a write.
    let (computed, cacheable) = ThreadContext.withCurrent { context in
      context.withOwnCacheability(propagating: false) { compute(.latest, nil) }
    }
    guard let initial = computed else {
      Engine.misuse("A derived node's compute must return a value when previous is nil.")
    }
    if !cacheable { stamp.settled = false }
    self.compute = compute
    self.creationStamp = stamp
    self.pullStep = Self.pullStep
    self.releaseStep = Self.releaseStep
    self.refreshStep = Self.refreshStep
    super.init(
      home: home, value: initial, isSource: false, carriesEvents: carriesEvents, steps: steps)
    self.isAttached = false
    self.inputs = ContiguousArray(inputs)
    setOrigin(origin)
    Engine.attachInOrder(self)
  }

  /// Creates a node whose inputs were found by computing its first value (a computed
  /// property, see `ComputedBody`), and attaches it to the graph.
  ///
  /// - Parameters:
  ///   - inputs: What computing `initial` read; may be empty (a constant).
  ///   - home: The domain of `inputs`, merged, with the node's span counted (see
  ///     `Domain.join`), which the node lets go when it is freed; a new one when there are
  ///     none.
  ///   - stamp: `home`'s write stamp taken after `initial` was computed, with `settled` false
  ///     when a write landed on an input between its read and the stamp: the attachment then
  ///     recomputes the value.
  ///   - body: The computed property's body, which computes the value in either mode (see
  ///     `ComputedBody.compute`); the node's `compute` owns it.
  @inlinable
  init(
    computedFrom inputs: ContiguousArray<AnyNode>, home: Domain, initial: Value,
    stamp: (writes: UInt64, settled: Bool), body: ComputedBody<Value>
  ) {
    self.compute = { [body] mode, previous in body.compute(mode, previous) }
    self.computedBody = Unmanaged.passUnretained(body)
    self.creationStamp = stamp
    self.pullStep = Self.pullStep
    self.releaseStep = Self.releaseStep
    self.refreshStep = Self.refreshStep
    // The step captures nothing, so it needs no context; it calls the body borrowed (see
    // `computedBody`).
    super.init(
      home: home, value: initial, isSource: false, carriesEvents: false,
      steps: Self.steps(recompute: { node in
        let node = unsafeDowncast(node, to: DerivedNode<Value>.self)
        let computed = node.computedBody.unsafelyUnwrapped._withUnsafeGuaranteedRef {
          unsafeDowncast($0, to: ComputedBody<Value>.self).compute(.delivery, node.delivered)
        }
        guard let value = computed else {
          // Computed again in the same event (a new input changed after the first run), it
          // gives the delivered value back: what the first run staged must not be committed.
          if node.hasStaged {
            node.staged = node.delivered
            node.hasStaged = false
          }
          return false
        }
        node.stage(value)
        return true
      }))
    self.isAttached = false
    self.inputs = inputs
  }

  /// Attaches a node made by `init(computedFrom:...)`, once its owner can compute it.
  @usableFromInline
  package func attachComputed() {
    Engine.attachInOrder(self)
  }

  override func attachAwaited() {
    Engine.attach(self)
  }

  /// The specialized `pullOne` step, for the initializers to store.
  @inlinable
  static var pullStep: @Sendable (AnyNode, UInt64, ThreadContext) -> Void {
    { node, stamp, context in
      unsafeDowncast(node, to: DerivedNode<Value>.self).pullOneSpecialized(at: stamp, context)
    }
  }

  /// Stages `value` as the value for the change being delivered on `node`, a node of this
  /// type; returns `true`, for a delivery step to return.
  @inlinable @inline(__always)
  package static func stage(_ value: Value, on node: AnyNode) -> Bool {
    unsafeDowncast(node, to: DerivedNode<Value>.self).stage(value)
    return true
  }

  deinit {
    // A chain of derived nodes would otherwise free itself recursively, one stack frame per
    // node: the inputs, and the closures that may capture properties (a computed property's
    // computation captures what it reads), are handed to the thread's release loop instead,
    // which the outermost such deinit runs (see `releaseInputsAndClosures()`).
    releaseStep(self)
    releaseOwnOrigin()
    // (A node detached lets its parked branch go then: only one freed attached keeps one.)
    parkedBranch?.release()
  }

  /// `releaseInputsAndClosures()`, specialized, made where the value type is known: a generic
  /// class's `deinit` runs generic code, where making the placeholder closures below looked up
  /// the metadata of their types each time, about 500 instructions of every derived node's
  /// release.
  @usableFromInline let releaseStep: @Sendable (AnyNode) -> Void

  /// The specialized release step, for the initializers to store.
  @inlinable
  static var releaseStep: @Sendable (AnyNode) -> Void {
    { unsafeDowncast($0, to: DerivedNode<Value>.self).releaseInputsAndClosures() }
  }

  /// Hands the node's inputs and closures to the thread's release loop
  /// (`Engine.beginReleasingInputs`). (The operators' closures hold the inputs unretained, so
  /// `inputs` holds the only references this node has to them.) The outermost release lets the
  /// closures go here, replaced by placeholders, before it runs the loop; a nested one lists
  /// them for that loop, so that what they capture outlives the node's own fields (which die
  /// after its deinit) and dies in the loop. Called once, by `deinit`.
  ///
  /// The closures are replaced in place, never moved into a local: `compute`'s type mentions
  /// `Value`, and a local of it in specialized code has the concrete calling convention where
  /// the field has the generic one, so each move went through a reabstraction thunk, an
  /// allocation (four on every derived node freed, with passing them on as generic values).
  ///
  /// The thread's context is borrowed (`ThreadContext.current` retained and released it).
  @inlinable
  final func releaseInputsAndClosures() {
    ThreadContext.withCurrent { context in
      guard Engine.beginReleasingInputs(of: self, context) else {
        // Boxed: nested releases only (a chain's nodes after the first).
        Engine.listForRelease(compute, context)
        Engine.listForRelease(steps.recompute, context)
        compute = { _, _ in nil }
        steps.recompute = { _ in false }
        computedBody = nil
        return
      }
      compute = { _, _ in nil }
      steps.recompute = { _ in false }
      computedBody = nil
      Engine.endReleasingInputs(context)
    }
  }

  /// The value computed from the newest writes at `pullCache.stamp` (the domain's write count), for
  /// reads while writes wait for delivery: each stale node is computed once per stamp, not once
  /// per read. Lock.
  ///
  /// Kept in `pulledStorage`, an array of at most one element: a generic class's fields are
  /// destroyed by generic code, where an optional `Value` looked up `Optional<Value>`'s metadata
  /// (about 330 instructions of every derived node's release), and an array is one reference
  /// whatever its element; a plain `Value` holding the first value until a pull would keep that
  /// value alive for as long as the node, however often its delivered value changed since. A
  /// node never read on demand (most `map`s) allocates nothing for it.
  ///
  /// A computed property's first value is cached as its delivered value (`PullCache.isDelivered`)
  /// rather than copied here: nothing to allocate, and once deliveries replace it, nothing
  /// keeps it alive.
  @inlinable final var pulled: Value? {
    pullCache.isDelivered ? delivered : pulledAddress?.pointee
  }
  /// Holds the pulled value's one element once there is one (see `pulled`). Lock.
  @exclusivity(unchecked) @usableFromInline final var pulledStorage: ContiguousArray<Value> = []
  /// Where `pulledStorage` keeps its element: reads and replacements go through it, with none
  /// of the array's checks (the array is never shared, and never grows once it has it). Lock.
  @exclusivity(unchecked) @usableFromInline final var pulledAddress: UnsafeMutablePointer<Value>?

  /// Caches `value` as the pulled value, leaving the one it replaces, if any, in `value`, for
  /// the caller to release outside the lock. Lock.
  @inlinable
  final func swapPulled(_ value: inout Value?) {
    guard var replacing = value else { return }
    pullCache.isDelivered = false
    if let address = pulledAddress {
      swap(&address.pointee, &replacing)
      value = replacing
      return
    }
    pulledStorage.append(replacing)
    pulledAddress = pulledStorage.withUnsafeMutableBufferPointer { $0.baseAddress }
    value = nil
  }

  /// `pullOneSpecialized(at:_:)`, made where the value type is known.
  @usableFromInline let pullStep: @Sendable (AnyNode, UInt64, ThreadContext) -> Void

  override func pull() -> Value { pullValue() }

  /// `currentValue()` of a derived node, the slow way: its delivered value if settled, else
  /// its pulled value for the current stamp, else computed now with every stale input.
  /// Inlinable and not inlined: specialized for the caller's value type, which the overridden
  /// `pull()` is not (a generic class's override runs generic code, and the runtime's metadata
  /// lookups cost more than the computing).
  @inlinable @inline(never)
  final func pullValue() -> Value {
    assertUnlocked()
    // The root borrowed (`withRootLocked`): `home.lockRoot()` retained and released it.
    let taken: Value? = withRootLockedInlined { root in
      defer { root.lock.unlock() }
      if deliveredFollowsInputs && root.unsettled == 0 { return delivered }
      guard let value = pulled else { return nil }
      // A first value noting its reads computes values again, each once (see
      // `SourceReadLog`).
      if pullCache.hasValue && isPulledValueCurrent(in: root)
        && !ThreadContext.recomputesForSourceReads(self)
      {
        #if DEBUG
          notePulledValueTaken(in: root)
        #endif
        return value
      }
      guard wasPulledInThisPull() else { return nil }
      // Computed earlier in this pull; if it may not be cached, neither may the value of the
      // computation reading it (as when it is computed, see `pullOneSpecialized`).
      #if DEBUG
        notePulledValueTaken(in: root)
      #endif
      if !pullCache.hasValue {
        ThreadContext.withCurrent { $0.computation.pulledValueIsCacheable = false }
      }
      return value
    }
    if let taken { return taken }
    Engine.pullConsistently(self)
    return withRootLocked { again in
      defer { again.lock.unlock() }
      #if DEBUG
        if pulled != nil { notePulledValueTaken(in: again) }
      #endif
      return pulled ?? delivered
    }
  }

  override func isPullCurrent(_ root: Domain) -> Bool {
    root.assertLockedRoot()
    if deliveredFollowsInputs && root.unsettled == 0 { return true }
    return (pullCache.hasValue && isPulledValueCurrent(in: root))
      || wasPulledInThisPull()
  }

  override func pullOne(at stamp: UInt64, _ context: ThreadContext) {
    pullStep(self, stamp, context)
  }

  /// `pullOne(at:_:)`, specialized (see `pullValue()`): what `pullStep` runs.
  @inlinable
  final func pullOneSpecialized(at stamp: UInt64, _ context: ThreadContext) {
    assertUnlocked()
    // Computed already in this pull (at this stamp or a later one: see `wasPulledInThisPull`),
    // by a computation that read it though not linked to it (the pull's order follows the
    // links), or at this stamp of this domain by another pull (a node joined to it since may
    // hold a value cached at the same count of its own). The root borrowed, as below.
    let previousIfStale: Value? = withRootLockedInlined { root in
      defer { root.lock.unlock() }
      if _slowPath(
        (pullCache.inPull != 0 && context.computation.holdsPulledValue(pullCache))
          || (pullCache.hasValue && pullCache.stamp == stamp
            && pullCache.stampRoot == context.computation.pullRoot
            && !context.recomputesForSourceReads(self))
      ) {
        return nil
      }
      return delivered
    }
    guard let previous = previousIfStale else { return }
    context.beginComputing(self)
    #if DEBUG
      let enclosingTaken = context.computation.oldestTakenStamp
      context.computation.oldestTakenStamp = .max
    #endif
    // A value not cacheable here (it read inputs the node is not linked to) is not cacheable
    // for the computation that read it either.
    context.computation.pulledReadsMatch = false
    let computed = context.withOwnCacheability(propagating: true) {
      runCompute(.latest, previous) ?? previous
    }
    var value: Value? = computed.result
    let cacheable = computed.cacheable
    let readsMatch = cacheable && context.computation.pulledReadsMatch
    context.endComputing()
    #if DEBUG
      checkTakenValues(context.computation.oldestTakenStamp, computedAt: stamp)
      context.computation.oldestTakenStamp = enclosingTaken
    #endif
    context.sourceReads?.computed.insert(ObjectIdentifier(self))
    withRootLocked { again in
      // Pulls on several threads may finish out of order: one that began at an older stamp
      // must not replace what a pull at a newer one cached, which a reader that wrote in
      // between is about to return (it reads its own write there). Stamps only grow.
      if stamp >= pullCache.stamp {
        swapPulled(&value)
        // A computed property that read inputs it is not linked to yet (writes to them do not
        // move this domain's stamp) is computed again at the next read.
        pullCache.hasValue = cacheable
        pullCache.readsMatchInputs = readsMatch
        if readsMatch && context.batch.depth > 0 { context.computation.pulledInBatch = true }
        pullCache.stamp = stamp
        pullCache.stampRoot = context.computation.pullRoot
        // Only a value that may not be cached needs it: one that may is current by its stamp.
        pullCache.inPull = cacheable ? 0 : context.computation.outermostPull
      }
      again.lock.unlock()
    }
    // `value` now holds the previous cached value (or the one not kept), which dies here,
    // outside the lock.
  }

  /// The pulled value, if a delivery under way on this thread may take it for the node's
  /// delivered run (see `AnyNode.withDeliverablePulledValue(_:_:)`).
  @inlinable
  final func pulledForDelivery(_ context: ThreadContext) -> Value? {
    var value: Value?
    withDeliverablePulledValue(context) { value = pulled }
    return value
  }

  /// Refreshes the node in delivery order: once the deliveries under way and the node's own
  /// attachment are done. For an operator that can only decide what to follow once the node
  /// exists (`flatMapLatest`): whatever the node missed meanwhile, it catches up with here.
  package func refreshInOrder() {
    Engine.performInOrder(in: home) { [self] in refresh() }
  }

  override func refresh() { refreshStep(self) }

  /// `refreshSpecialized()`, made where the value type is known: the overridden `refresh()`
  /// runs generic code, where passing `delivered` as an optional and taking the optional
  /// result back looked up `Optional<Value>`'s metadata, about 700 instructions of every
  /// node resumed (a computed property's branch flipping back resumes one per write).
  @usableFromInline let refreshStep: @Sendable (AnyNode) -> Void

  /// The specialized refresh step, for the initializers to store.
  @inlinable
  static var refreshStep: @Sendable (AnyNode) -> Void {
    { unsafeDowncast($0, to: DerivedNode<Value>.self).refreshSpecialized() }
  }

  /// Computes the node again from what its inputs delivered (see `AnyNode.refresh()`): what
  /// `refreshStep` runs. Role.
  @inlinable
  final func refreshSpecialized() {
    assertRole()
    // Events are not state to catch up with: an event node rests at its initial value.
    let computed = carriesEvents ? nil : runCompute(.delivery, delivered)
    // The root borrowed (`withRootLocked`), not retained as `lockRoot()`'s result is.
    let previous: Value? = withRootLocked { root in
      isRefreshing = false  // reads may take `delivered` again
      guard var value = computed else {
        root.lock.unlock()
        return nil
      }
      swap(&delivered, &value)
      changeCount &+= 1
      root.lock.unlock()
      return value
    }
    // The previous value (in `previous`) and the old `staged` die here, outside the lock.
    if previous != nil { staged = delivered }
  }
}
