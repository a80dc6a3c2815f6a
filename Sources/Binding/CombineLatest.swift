import InvalidatingCore

extension Property where Value == Never {
  /// A property whose value is the tuple of the current values of `properties`, updated when
  /// any of them changes.
  ///
  /// ```swift
  /// let pair: Property<(Int, String)> = Property.combineLatest(count, title)
  /// let all = Property.combineLatest(a, b, c, d, e, f)   // any number of inputs
  /// ```
  ///
  /// The engine recomputes the tuple once per delivered change, after every input has taken
  /// its new value: when several inputs change together (in one `batch`, or because they are
  /// derived from one source) subscribers see one tuple with every new value, never a mix of
  /// old and new.
  ///
  /// With no inputs, the result is a constant `()`.
  ///
  /// - Parameter properties: The properties to combine, in tuple order. They may repeat.
  /// - Returns: The combined property. It keeps the inputs' storage (not the relays that own
  ///   it) alive, and completes when every input has completed.
  /// - Complexity: O(number of inputs) per change.
  @inlinable
  public static func combineLatest<each Input>(
    _ properties: repeat Property<each Input>
  ) -> Property<(repeat each Input)> {
    // Held unretained: the derived node's `inputs` keep every input alive for as long as the
    // closure can run, and reference counting here would cost more than the reads.
    let nodes = (repeat Unmanaged.passUnretained((each properties).node))
    var inputs: [AnyNode] = []
    for input in repeat each properties { inputs.append(input.node) }
    guard !inputs.isEmpty else {
      return Property<(repeat each Input)>(
        value: (repeat (each nodes)._withUnsafeGuaranteedRef { $0.read(.latest) }))
    }
    return ._derived(from: inputs) { mode, _ in
      (repeat (each nodes)._withUnsafeGuaranteedRef { $0.read(mode) })
    }
  }
}
