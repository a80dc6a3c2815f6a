import InvalidatingCore

extension Property where Value == Never {
  /// A property whose value is the array of the current values of `properties`, updated when
  /// any of them changes.
  ///
  /// ```swift
  /// let prices: [Property<Double>] = cart.items.map(\.price)
  /// let total = Property.combineLatest(prices).map { $0.reduce(0, +) }
  /// ```
  ///
  /// The collection form of ``combineLatest(_:file:line:)->Property<(Input)>``, for inputs of one type
  /// whose number is known only at run time. It is glitch-free in the same way: the engine
  /// recomputes the array once per delivered change, after every input has taken its new
  /// value. When several inputs change together (in one `batch`, or because they are derived
  /// from one source) subscribers see one array with every new value, never a mix of old and
  /// new.
  ///
  /// With no inputs, the result is a constant `[]`: it never changes, and a subscriber receives
  /// `[]` and then, if it asked, its completion at once (as for ``Property/init(value:)``).
  ///
  /// - Parameters:
  ///   - properties: The properties to combine, in array order. They may repeat. The
  ///     collection is read once, here: later changes to it do not change the inputs.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  /// - Returns: The combined property. It keeps the inputs' storage (not the relays that own
  ///   it) alive, and completes when every input has completed.
  /// - Complexity: O(*n*) per delivered change for *n* inputs, however many of them changed: the
  ///   new array is built from every input's value (one allocation and *n* copies, no lock).
  ///   The engine tells a derived value that an input changed, not which one, and the array
  ///   delivered last is shared with its subscribers, so it is rebuilt rather than patched. A
  ///   batch that changes *k* of the inputs costs one rebuild, not *k*.
  @inlinable
  public static func combineLatest<Element>(
    _ properties: some Collection<Property<Element>>, file: StaticString = #fileID,
    line: UInt = #line
  ) -> Property<[Element]> {
    // Held unretained, as in the variadic form: the derived node's `inputs` keep every input
    // alive for as long as the closures can run.
    let nodes = properties.map { Unmanaged.passUnretained($0.node) }
    guard !nodes.isEmpty else { return Property<[Element]>(value: []) }
    return ._derived(
      from: properties.map { $0.node }, origin: .made("combineLatest", file: file, line: line),
      compute: { mode, _ in nodes.map { ValueNode.read($0, mode) } },
      deliver: { DerivedNode.stage(nodes.map { ValueNode.read($0, .delivery) }, on: $0) })
  }
}
