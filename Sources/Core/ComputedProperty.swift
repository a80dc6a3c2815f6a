extension Property {
  /// Creates a property computed by `compute`, which follows whatever properties `compute`
  /// read the last time it ran.
  ///
  /// ```swift
  /// let total = Property { price.value * Double(quantity.value) }
  /// let label = Property { isEditing.value ? draft.value : saved.value }
  /// ```
  ///
  /// Every `value` read inside `compute` is a dependency: when one of them changes, the
  /// property is computed again, in the same delivery as everything else the change reaches,
  /// so it is glitch-free with `map`, `combineLatest` and other computed properties. A
  /// dependency read only in a branch not taken (`saved` while `isEditing` is `true`) is not
  /// followed until a run takes that branch. Read something without following it with
  /// ``untracked(_:)``. Where the `Observation` module exists, reads of an `@Observable`
  /// object's properties inside `compute` are followed too.
  ///
  /// The value is computed once here, then once per delivered change of a dependency, and on
  /// demand when read while a write waits for delivery (inside a `batch`); it is cached
  /// between. A property whose `Value` is `Equatable` notifies nobody when it computes a value
  /// equal to the one it holds (see the initializer of `Equatable` values); this one notifies
  /// after every computation.
  ///
  /// The property stops following its dependencies when it is released (with its
  /// subscriptions and the properties computed from it). `compute` keeps alive whatever it
  /// captures, including the properties it reads.
  ///
  /// > Important: `compute` runs on the thread that delivers the change (any thread that
  /// > writes a dependency), never concurrently with itself, and must not write properties:
  /// > derive state, do not store it. A computation that reads its own value, directly or
  /// > through others, stops the program with a message naming the property.
  ///
  /// - Parameters:
  ///   - file: The file that creates the property, for messages; leave the default.
  ///   - line: The line that creates the property, for messages; leave the default.
  ///   - compute: Computes the value from other properties' `value`.
  @inlinable
  public convenience init(
    file: StaticString = #fileID, line: UInt = #line,
    _ compute: @escaping @Sendable () -> Value
  ) {
    self.init(node: ComputedLink.makeNode(compute, isDuplicate: nil, file: file, line: line))
  }
}

extension Property where Value: Equatable & SendableMetatype {
  /// Creates a property computed by `compute`, which follows whatever properties `compute`
  /// read the last time it ran, and notifies nobody when a computation gives a value equal to
  /// the one it holds.
  ///
  /// ```swift
  /// let isValid = Property { email.value.contains("@") && password.value.count >= 8 }
  /// // Typing in `email` computes isValid again, but its subscribers and the properties
  /// // computed from it hear of it only when it flips.
  /// ```
  ///
  /// This is the cut-off that auto-tracking libraries give every computed value: an equal
  /// result ends the propagation there. Everything else is as for the initializer without
  /// `Equatable`.
  ///
  /// - Parameters:
  ///   - file: The file that creates the property, for messages; leave the default.
  ///   - line: The line that creates the property, for messages; leave the default.
  ///   - compute: Computes the value from other properties' `value`.
  @inlinable
  public convenience init(
    file: StaticString = #fileID, line: UInt = #line,
    _ compute: @escaping @Sendable () -> Value
  ) {
    self.init(node: ComputedLink.makeNode(compute, isDuplicate: ==, file: file, line: line))
  }
}

/// What a computed property's node computes with: the user's computation, the cut-off, and
/// the node itself, for the computation to relink it to what it read.
///
/// Inlinable, so that the node's steps and the computation's reads are specialized for the
/// caller's value type: unspecialized, the generic metadata lookups cost more than the rest.
@usableFromInline
final class ComputedLink<Value>: @unchecked Sendable {
  // Safe: `node` is set once, before the node is shared; the rest is immutable.
  @usableFromInline let body: @Sendable () -> Value
  @usableFromInline let isDuplicate: (@Sendable (Value, Value) -> Bool)?
  /// What the computation's reads of `@Observable` objects depend on (see `ObservableReads`).
  @usableFromInline let observation = ObservationTrigger()
  /// The node; it owns this link (through its compute closure), hence unowned.
  @exclusivity(unchecked) @usableFromInline unowned(unsafe) var node: DerivedNode<Value>?

  @inlinable
  init(_ body: @escaping @Sendable () -> Value, isDuplicate: (@Sendable (Value, Value) -> Bool)?) {
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
    let link = ComputedLink(body, isDuplicate: isDuplicate)
    var initial: Value?
    let start = ThreadContext.current.trackFirstRun { initial = link.run() }
    let node = DerivedNode<Value>(
      computedFrom: start.inputs, home: start.home, initial: initial.unsafelyUnwrapped,
      stamp: start.stamp
    ) { mode, previous in link.compute(mode, previous) }
    node.origin = .made("computed", file: file, line: line)
    link.node = node
    node.attachComputed()
    Engine.releaseInOrder(start.held, after: node)
    return node
  }

  /// Runs the computation inside a tracked run, following the `@Observable` objects it reads
  /// through `observation`'s source.
  @inlinable
  func run() -> Value {
    var value: Value?
    observation.track { value = body() }
    return value.unsafelyUnwrapped
  }

  /// The node's compute (see `DerivedNode`): runs the computation, tracking its reads; in
  /// `.delivery` mode, relinks the node to what it read when that changed; returns `nil` for
  /// a value equal to `previous` when the value is `Equatable`.
  @inlinable
  func compute(_ mode: _ReadMode, _ previous: Value?) -> Value? {
    var value: Value?
    ThreadContext.withCurrent { context in
      context.trackComputation(of: node.unsafelyUnwrapped, mode) { value = run() }
    }
    let computed = value.unsafelyUnwrapped
    if let previous, let isDuplicate, isDuplicate(previous, computed) { return nil }
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
    withTracker(mode: .latest, expected: [], body) { tracker in
      inputs = tracker.recorded
      let domain = inputs.isEmpty ? Domain() : Domain.merged(inputs.map(\.home))
      stamp = domain.writeStamp()
      if tracker.newDependencyChangedSinceRead() { stamp.settled = false }
      home = domain
      held = tracker.takeHeld()
    }
    return (inputs, home.unsafelyUnwrapped, stamp, held)
  }

  /// Runs `body`, a computation of `node`, as a tracked run; in `.delivery` mode, relinks the
  /// node to what it read when that changed (a read on demand does not relink: the delivery of
  /// the write it saw will).
  @usableFromInline
  func trackComputation(of node: AnyNode, _ mode: _ReadMode, _ body: () -> Void) {
    // In `.delivery` mode reads give delivered values and compute nothing, so no computation
    // can enter itself; a loop in the edges is found when they are relinked.
    if mode == .latest, isTracking(ObjectIdentifier(node)) {
      Engine.misuse(
        """
        \(node.describedForMisuse) depends on itself: its computation read its own value, \
        directly or through other computed properties. Compute it from the sources instead, \
        or read the other property with `untracked { }` if it must not follow it.
        """)
    }
    let expected = mode == .delivery ? node.inputs : node.lockedInputs()
    withTracker(
      mode: mode, expected: expected, deliveredNode: node, computing: ObjectIdentifier(node), body
    ) { tracker in
      guard tracker.dependenciesChanged else { return }
      guard mode == .delivery else {
        // On demand: not relinked (the delivery of the write it saw will relink), so a write
        // to a new input would not make the cached value stale.
        if !tracker.versions.isEmpty { pulledValueIsCacheable = false }
        return
      }
      let switchedNow = Engine.switchInputs(
        of: node, to: Array(tracker.recorded), releasingAfterwards: tracker.takeHeld())
      // A new input of another domain, written between its read and the relink: compute
      // again, now that its writes come through this domain.
      if switchedNow, tracker.newDependencyChangedSinceRead() { Engine.recomputeLater(node) }
    }
  }
}
