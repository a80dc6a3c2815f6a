import InvalidatingCore

extension TraceFilter {
  /// Each event of `signal`, and every invalidation and pass that one of its events caused.
  ///
  /// - Parameter signal: The signal to follow. The filter does not keep it alive.
  /// - Returns: The filter.
  public static func signal<Element>(_ signal: Signal<Element>) -> TraceFilter {
    node(signal.node)
  }
}
