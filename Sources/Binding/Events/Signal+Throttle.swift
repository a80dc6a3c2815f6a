import InvalidatingCore

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Signal where Element: Sendable {
  /// A signal that delivers at most one event per `interval`: the first event at once, then,
  /// if `latest`, the last event of the interval at its end.
  ///
  /// ```swift
  /// let saves = edits.throttle(for: .seconds(1), clock: ContinuousClock())
  /// ```
  ///
  /// The first event of a quiet period is delivered on the thread that delivers it to this
  /// operator; an event held for the end of an interval is delivered from a task. Pass a
  /// manual clock in tests to control time.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two events delivered.
  ///   - clock: The clock that measures it.
  ///   - latest: Whether the last event of an interval is delivered at its end (`true`, as
  ///     RxSwift's `throttle` does) or dropped (`false`).
  /// - Returns: The throttled signal. It keeps this one followed for as long as it lives.
  public func throttle<C: Clock & Sendable>(
    for interval: C.Duration, clock: C, latest: Bool = true
  ) -> Signal<Element> where C.Duration: Sendable {
    let timer = _SignalTimer<Element>()
    @Sendable func runWindow(_ timer: _SignalTimer<Element>) async {
      repeat {
        do { try await clock.sleep(for: interval) } catch { return }
      } while timer.endWindow()
    }
    timer.follow(self) { timer, event in
      if timer.openWindow(with: event, keepingLatest: latest) {
        timer.start { [weak timer] in
          if let timer { await runWindow(timer) }
        }
      }
    }
    return Signal(node: timer.makeOutput())
  }
}
