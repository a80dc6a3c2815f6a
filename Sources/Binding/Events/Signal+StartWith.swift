import InvalidatingCore

extension Signal {
  /// A signal whose every new subscriber first receives `events`, then this signal's events.
  ///
  /// ```swift
  /// let reload = refreshTap.startWith(())   // a subscriber loads once at once, then per tap
  /// ```
  ///
  /// The first events are given to each subscriber when it subscribes, on its thread, before
  /// `subscribe` returns; operators carry them along (`map` maps them, `scan` starts from
  /// them).
  ///
  /// - Parameter events: The events to start with, in order.
  /// - Returns: The signal.
  /// - Complexity: O(`events.count`) per subscription.
  public func startWith(_ events: Element...) -> Signal<Element> {
    Signal(node: node, prefix: events + prefix, changesOf: changesOf, start: start)
  }
}
