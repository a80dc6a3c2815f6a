import InvalidatingCore

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Property where Value: Sendable {
  /// A property that takes this property's value only once it has stayed unchanged for
  /// `dueTime`: the last value of each burst of changes.
  ///
  /// ```swift
  /// let settledQuery = query.debounce(for: .milliseconds(300), clock: ContinuousClock())
  /// let results = settledQuery.flatMapLatest { text in try await api.search(text) }
  /// ```
  ///
  /// It starts with this property's value, at once; a change is taken from a task, on no
  /// particular thread. When this property completes, a change still waiting is taken at
  /// once, then the debounced property completes too. Pass a `TestClock` in tests.
  ///
  /// - Parameters:
  ///   - dueTime: How long the value must stay unchanged.
  ///   - clock: The clock that measures it.
  /// - Returns: The debounced property. It keeps this one followed for as long as it lives.
  public func debounce<C: Clock & Sendable>(for dueTime: C.Duration, clock: C) -> Property<Value>
  where C.Duration: Sendable {
    let timer = _SignalTimer<Value>()
    let output = Signal(node: timer.makeOutput())
    timer.followChanges(of: self, _SignalTimer.debouncing(for: dueTime, clock: clock))
    return Property(initial: value, then: output)
  }
}
