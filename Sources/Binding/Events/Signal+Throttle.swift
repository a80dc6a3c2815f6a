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
  /// A start event (``startWith(_:)``, or a property's value for
  /// ``InvalidatingCore/Property/valueAndChanges``) is given to each new subscriber at once,
  /// the first of them only, as they were when the operator was made, and opens no interval.
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
    let output = timer.makeOutput()
    // The start events (``startWith(_:)``, a property's value) are each subscriber's own: the
    // first passes at once, as the first event of a quiet period, and opens no window of the
    // shared timer. The timer follows the events alone.
    timer.follow(
      Signal(node: node, changesOf: changesOf),
      _SignalTimer.throttling(for: interval, clock: clock, latest: latest))
    return Signal(node: output, prefix: Array(startEvents.prefix(1)))
  }
}

extension _SignalTimer {
  /// The step of `throttle` for each event: deliver it at once and open a window if none is
  /// open, otherwise hold it (if `latest`) for the window's end.
  static func throttling<C: Clock & Sendable>(
    for interval: C.Duration, clock: C, latest: Bool
  ) -> @Sendable (_SignalTimer, Element) -> Void where C.Duration: Sendable {
    // The window's first deadline is taken when the event that opens it arrives; each
    // interval it is kept open for follows the previous one.
    @Sendable func runWindow(_ timer: _SignalTimer, from start: C.Instant) async {
      var deadline = start
      repeat {
        deadline = deadline.advanced(by: interval)
        do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
      } while timer.endWindow()
    }
    return { timer, event in
      let start = clock.now
      if timer.openWindow(with: event, keepingLatest: latest) {
        timer.start { [weak timer] in
          if let timer { await runWindow(timer, from: start) }
        }
      }
    }
  }
}
