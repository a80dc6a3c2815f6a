import InvalidatingCore

extension Property {
  /// A property whose value is `transform` applied to this property's value.
  ///
  /// ```swift
  /// let doubled: Property<Int> = count.map { $0 * 2 }
  /// ```
  ///
  /// `transform` runs once when the property is created and once per delivered change of this
  /// property, before any sink sees the change; a diamond (two maps of one source, combined)
  /// is never seen half-updated. Reading `value` while a write waits for delivery (inside a
  /// `batch`) runs `transform` on demand.
  ///
  /// The new property keeps this property's storage (not the relay that owns it) alive.
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - transform: A pure function of the value. It runs on the delivering thread, never
  ///     concurrently with itself for one delivery.
  /// - Returns: The derived property.
  /// - Complexity: O(1) per change, plus `transform`.
  @inlinable
  public func map<Transformed>(
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping @Sendable (Value) -> Transformed
  ) -> Property<Transformed> {
    // Unretained: the derived node's `inputs` keep it alive for as long as the closures can
    // run, a retained capture would make freeing a long chain recurse, and reading through
    // `Unmanaged` costs no reference counting.
    let input = Unmanaged.passUnretained(node)
    return ._derived(
      from: [node], origin: .made("map", file: file, line: line),
      compute: { mode, _ in transform(ValueNode.read(input, mode)) },
      deliver: { DerivedNode.stage(transform(ValueNode.read(input, .delivery)), on: $0) })
  }
}
