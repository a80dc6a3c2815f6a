import InvalidatingCore

extension Signal {
  /// A signal of `transform` applied to each of this signal's events.
  ///
  /// ```swift
  /// let titles: Signal<String> = taps.map { "Tapped \($0)" }
  /// ```
  ///
  /// - Parameter transform: Called once per event, on the delivering thread.
  /// - Returns: The transformed signal.
  /// - Complexity: O(1) per event, plus `transform`.
  @inlinable
  public func map<Transformed>(
    _ transform: @escaping @Sendable (Element) -> Transformed
  ) -> Signal<Transformed> {
    // Unretained: the derived node's inputs keep the input alive (see `Property.map`).
    let input = Unmanaged.passUnretained(node)
    return ._derived(from: [node], kind: "map", prefix: prefix.map(transform)) {
      ValueNode.read(input, .delivery).map(transform)
    }
  }
}
