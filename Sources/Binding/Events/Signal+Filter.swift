import InvalidatingCore

extension Signal {
  /// A signal of this signal's events that pass `isIncluded`.
  ///
  /// ```swift
  /// let longPresses = presses.filter { $0.duration > 0.5 }
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - isIncluded: Called once per event, on the delivering thread.
  /// - Returns: The filtered signal.
  /// - Complexity: O(1) per event, plus `isIncluded`.
  @inlinable
  public func filter(
    file: StaticString = #fileID, line: UInt = #line,
    _ isIncluded: @escaping @Sendable (Element) -> Bool
  ) -> Signal<Element> {
    let input = Unmanaged.passUnretained(node)
    return ._derived(
      from: [node], origin: .made("filter", file: file, line: line),
      prefix: prefix.filter(isIncluded),
      start: start?.compactMap { isIncluded($0) ? $0 : nil }
    ) {
      guard let event = ValueNode.read(input, .delivery), isIncluded(event) else { return nil }
      return event
    }
  }
}
