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
  /// The value is computed once here, to find what it reads. From then on it is lazy, as
  /// MobX's and Solid's computed values are: while something observes it (a subscription, a
  /// property derived from it, a view pass that read it), it is computed once per delivered
  /// change of a dependency, and on demand when read while a write waits for delivery (inside
  /// a `batch`); while nothing does, writes do not compute it, and a read computes it from the
  /// newest values, cached between writes. The first observer to come attaches it
  /// again, computed from what its dependencies delivered meanwhile. A property whose `Value`
  /// is `Equatable` notifies nobody when it computes a value equal to the one it holds (see
  /// the initializer of `Equatable` values); this one notifies after every computation.
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
    self.init(node: ComputedBody.makeNode(compute, isDuplicate: nil, file: file, line: line))
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
    self.init(node: ComputedBody.makeNode(compute, isDuplicate: ==, file: file, line: line))
  }
}
