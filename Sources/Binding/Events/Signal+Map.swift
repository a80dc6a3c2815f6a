import InvalidatingCore

extension Signal {
  /// A signal of `transform` applied to each of this signal's events.
  ///
  /// ```swift
  /// let titles: Signal<String> = taps.map { "Tapped \($0)" }
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - transform: Called once per event, on the delivering thread.
  /// - Returns: The transformed signal.
  /// - Complexity: O(1) per event, plus `transform`.
  @inlinable
  public func map<Transformed>(
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping @Sendable (Element) -> Transformed
  ) -> Signal<Transformed> {
    // Unretained: the derived node's inputs keep the input alive (see `Property.map`).
    let input = Unmanaged.passUnretained(node)
    let origin = NodeOrigin.made("map", file: file, line: line)
    return ._derived(
      from: [node], origin: origin, prefix: prefix.map(transform),
      start: start?.compactMap { transform($0) }
    ) {
      ValueNode.read(input, .delivery).map(transform)
    }
  }
}
