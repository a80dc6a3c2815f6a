import InvalidatingCore

extension Property {
  /// A property that follows this one but skips a change equivalent to the value it holds.
  ///
  /// ```swift
  /// let name = profile.map(\.name).removeDuplicates { $0.lowercased() == $1.lowercased() }
  /// ```
  ///
  /// The comparison is with the value the new property last delivered, so a run of equivalent
  /// values notifies once. Derived properties and sinks downstream are not recomputed or
  /// called for a skipped change.
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - isDuplicate: Returns `true` when its second argument (the new value) should be
  ///     skipped given its first (the current value).
  /// - Returns: The deduplicated property.
  /// - Complexity: O(1) per change, plus `isDuplicate`.
  @inlinable
  public func removeDuplicates(
    file: StaticString = #fileID, line: UInt = #line,
    by isDuplicate: @escaping @Sendable (Value, Value) -> Bool
  ) -> Property<Value> {
    let input = Unmanaged.passUnretained(node)  // kept alive by the node's inputs (see `map`)
    let origin = NodeOrigin.made("removeDuplicates", file: file, line: line)
    return ._derived(from: [node], origin: origin) { mode, previous in
      let value = ValueNode.read(input, mode)
      if let previous, isDuplicate(previous, value) { return nil }
      return value
    }
  }
}

extension Property where Value: Equatable & SendableMetatype {
  /// A property that follows this one but skips a change equal to the value it holds.
  ///
  /// ```swift
  /// let distinct = count.removeDuplicates()   // 0, 1, 1, 2 is seen as 0, 1, 2
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  /// - Returns: The deduplicated property.
  /// - Complexity: O(1) per change, plus one `==`.
  @inlinable
  public func removeDuplicates(
    file: StaticString = #fileID, line: UInt = #line
  ) -> Property<Value> {
    let input = Unmanaged.passUnretained(node)  // kept alive by the node's inputs (see `map`)
    let origin = NodeOrigin.made("removeDuplicates", file: file, line: line)
    return ._derived(from: [node], origin: origin) { mode, previous in
      let value = ValueNode.read(input, mode)
      return previous == value ? nil : value
    }
  }
}
