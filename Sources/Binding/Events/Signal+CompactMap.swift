import InvalidatingCore

extension Signal {
  /// A signal of the non-`nil` results of `transform` applied to each event.
  ///
  /// ```swift
  /// let numbers: Signal<Int> = typed.compactMap { Int($0) }
  /// ```
  ///
  /// - Parameter transform: Called once per event, on the delivering thread; an event it maps
  ///   to `nil` is dropped.
  /// - Returns: The transformed signal.
  /// - Complexity: O(1) per event, plus `transform`.
  @inlinable
  public func compactMap<Transformed>(
    _ transform: @escaping @Sendable (Element) -> Transformed?
  ) -> Signal<Transformed> {
    let input = Unmanaged.passUnretained(node)
    return ._derived(from: [node], kind: "compactMap", prefix: prefix.compactMap(transform)) {
      ValueNode.read(input, .delivery).flatMap(transform)
    }
  }
}
