import InvalidatingCore

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Property where Value: Sendable {
  /// A property that takes at most one of this property's changes per `interval`: the first
  /// change at once, then, if `latest`, the last value of the interval at its end.
  ///
  /// ```swift
  /// let progressShown = progress.throttle(for: .milliseconds(100), clock: ContinuousClock())
  /// ```
  ///
  /// It starts with this property's value, at once. The first change of a quiet period is
  /// taken on the thread that delivers it; a value held for the end of an interval is taken
  /// from a task. Pass a `TestClock` in tests.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two changes taken.
  ///   - clock: The clock that measures it.
  ///   - latest: Whether the last value of an interval is taken at its end (`true`) or dropped
  ///     (`false`).
  /// - Returns: The throttled property. It keeps this one followed for as long as it lives.
  public func throttle<C: Clock & Sendable>(
    for interval: C.Duration, clock: C, latest: Bool = true
  ) -> Property<Value> where C.Duration: Sendable {
    let timer = _SignalTimer<Value>()
    let output = Signal(node: timer.makeOutput())
    timer.followChanges(
      of: self, _SignalTimer.throttling(for: interval, clock: clock, latest: latest))
    return Property(initial: value, then: output)
  }
}
