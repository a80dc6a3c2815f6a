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
  /// - Parameter transform: A pure function of the value. It runs on the delivering thread,
  ///   never concurrently with itself for one delivery.
  /// - Returns: The derived property.
  /// - Complexity: O(1) per change, plus `transform`.
  @inlinable
  public func map<Transformed>(
    _ transform: @escaping @Sendable (Value) -> Transformed
  ) -> Property<Transformed> {
    let input = node
    return ._derived(
      from: [input], compute: { mode, _ in transform(input.read(mode)) },
      deliver: { DerivedNode.stage(transform(input.read(.delivery)), on: $0) })
  }
}
