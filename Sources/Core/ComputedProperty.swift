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
  /// equal to the one it holds (see ``init(file:line:_:)-(_,_,()->Value)``); this one notifies
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
  /// `Equatable` (``init(file:line:_:)-(_,_,()->Value)``).
  ///
  /// - Parameters:
  ///   - file: The file that creates the property, for messages; leave the default.
  ///   - line: The line that creates the property, for messages; leave the default.
  ///   - compute: Computes the value from other properties' `value`.
  public convenience init(
    file: StaticString = #fileID, line: UInt = #line,
    _ compute: @escaping @Sendable () -> Value
  ) {
    self.init(node: ComputedLink.makeNode(compute, isDuplicate: ==, file: file, line: line))
  }
}

/// What a computed property's node computes with: the user's computation, the cut-off, and
/// the node itself, for the computation to relink it to what it read.
@usableFromInline
final class ComputedLink<Value>: @unchecked Sendable {
  // Safe: `node` is set once, before the node is shared; the rest is immutable.
  let body: @Sendable () -> Value
  let isDuplicate: (@Sendable (Value, Value) -> Bool)?
  /// What the computation's reads of `@Observable` objects depend on (see `ObservableReads`).
  let observation = ObservationTrigger()
  /// The node; it owns this link (through its compute closure), hence unowned.
  unowned(unsafe) var node: DerivedNode<Value>?

  init(_ body: @escaping @Sendable () -> Value, isDuplicate: (@Sendable (Value, Value) -> Bool)?) {
    self.body = body
    self.isDuplicate = isDuplicate
  }

  /// Computes the first value, finds the domain of what it read, and makes and attaches the
  /// node.
  static func makeNode(
    _ body: @escaping @Sendable () -> Value, isDuplicate: (@Sendable (Value, Value) -> Bool)?,
    file: StaticString, line: UInt
  ) -> DerivedNode<Value> {
    let link = ComputedLink(body, isDuplicate: isDuplicate)
    let origin = NodeOrigin(kind: "A computed property", file: file, line: line)
    var inputs: ContiguousArray<AnyNode> = []
    var home: Domain?
    var stamp: (writes: UInt64, settled: Bool) = (0, false)
    let initial = ThreadContext.withCurrent { context in
      context.withTracker(mode: .latest, expected: []) {
        link.run()
      } finish: { tracker, _ in
        inputs = tracker.recorded
        let domain = inputs.isEmpty ? Domain() : Domain.merged(inputs.map(\.home))
        stamp = domain.writeStamp()
        // A write between a read and the stamp would otherwise go unseen: the attachment
        // recomputes when one landed.
        if tracker.newDependencyChangedSinceRead() { stamp.settled = false }
        home = domain
      }
    }
    let node = DerivedNode<Value>(
      computedFrom: inputs, home: home.unsafelyUnwrapped, initial: initial, stamp: stamp
    ) { mode, previous in link.compute(mode, previous) }
    node.origin = origin
    link.node = node
    node.attachComputed()
    return node
  }

  /// Runs the computation inside a tracked run, following the `@Observable` objects it reads
  /// through `observation`'s source.
  func run() -> Value {
    let observation = observation
    return ObservableReads.track(body) {
      ThreadContext.current.activeTracker?.record(observation.node)
    } onChange: {
      observation.fire()
    }
  }

  /// The node's compute (see `DerivedNode`): runs the computation, tracking its reads; in
  /// `.delivery` mode, relinks the node to what it read when that changed; returns `nil` for
  /// a value equal to `previous` when the value is `Equatable`.
  func compute(_ mode: _ReadMode, _ previous: Value?) -> Value? {
    let node = self.node.unsafelyUnwrapped
    return ThreadContext.withCurrent { context -> Value? in
      if context.isTracking(ObjectIdentifier(node)) {
        Engine.misuse(
          """
          \(node.describedForMisuse) depends on itself: its computation read its own value, \
          directly or through other computed properties. Compute it from the sources instead, \
          or read the other property with `untracked { }` if it must not follow it.
          """)
      }
      let expected = mode == .delivery ? node.inputs : node.lockedInputs()
      let value = context.withTracker(
        mode: mode, expected: expected, deliveredNode: node, computing: ObjectIdentifier(node)
      ) {
        run()
      } finish: { tracker, _ in
        // A read on demand does not relink: the delivery of the write it saw will.
        guard mode == .delivery, tracker.dependenciesChanged else { return }
        Engine.switchInputs(of: node, to: Array(tracker.recorded))
      }
      if let previous, let isDuplicate, isDuplicate(previous, value) { return nil }
      return value
    }
  }
}
