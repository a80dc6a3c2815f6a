import InvalidatingCore

extension Signal {
  /// A signal of the non-`nil` results of `transform` applied to each event.
  ///
  /// ```swift
  /// let numbers: Signal<Int> = typed.compactMap { Int($0) }
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - transform: Called once per event, on the delivering thread; an event it maps to
  ///     `nil` is dropped.
  /// - Returns: The transformed signal.
  /// - Complexity: O(1) per event, plus `transform`.
  @inlinable
  public func compactMap<Transformed>(
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping @Sendable (Element) -> Transformed?
  ) -> Signal<Transformed> {
    let input = Unmanaged.passUnretained(node)
    let origin = NodeOrigin.made("compactMap", file: file, line: line)
    return ._derived(
      from: [node], origin: origin, prefix: prefix.compactMap(transform),
      start: start?.compactMap(transform)
    ) {
      ValueNode.read(input, .delivery).flatMap(transform)
    }
  }
}
