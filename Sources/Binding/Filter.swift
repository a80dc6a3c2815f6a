import InvalidatingCore

extension Property {
  /// A property that takes this property's values that satisfy `isIncluded`, and keeps the last
  /// one taken otherwise.
  ///
  /// A property always has a value, so the filtered property starts from this property's value
  /// if it is included, and from `initial` if it is not.
  ///
  /// ```swift
  /// let lastEven = count.filter(initial: 0) { $0.isMultiple(of: 2) }
  /// // count 1, 2, 3, 4 is seen as 0, 2, 4
  /// ```
  ///
  /// A change that is not included notifies nobody downstream.
  ///
  /// - Parameters:
  ///   - initial: The value to start from when the current value is not included.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - isIncluded: Returns whether a value passes.
  /// - Returns: The filtered property.
  /// - Complexity: O(1) per change, plus `isIncluded`.
  @inlinable
  public func filter(
    initial: Value, file: StaticString = #fileID, line: UInt = #line,
    _ isIncluded: @escaping @Sendable (Value) -> Bool
  ) -> Property<Value> {
    let input = Unmanaged.passUnretained(node)  // kept alive by the node's inputs (see `map`)
    // Safe: `initial` is only read when `previous` is nil, which is the creation call, made
    // synchronously on this thread before `_derived` returns.
    nonisolated(unsafe) let initial = initial
    let origin = NodeOrigin.made("filter", file: file, line: line)
    return ._derived(from: [node], origin: origin) { mode, previous in
      let value = ValueNode.read(input, mode)
      if isIncluded(value) { return value }
      return previous == nil ? initial : nil
    }
  }
}
