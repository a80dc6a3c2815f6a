import InvalidatingCore

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Signal where Element: Sendable {
  /// A signal that delivers an event only once `dueTime` has passed without another: the last
  /// event of each burst.
  ///
  /// ```swift
  /// let search = queryEdits.debounce(for: .milliseconds(300), clock: ContinuousClock())
  /// ```
  ///
  /// The event is delivered from a task, on no particular thread. When this signal ends, an
  /// event still waiting is delivered at once, then the debounced signal ends too. Pass a
  /// manual clock in tests to control time.
  ///
  /// - Parameters:
  ///   - dueTime: How long the signal must stay quiet.
  ///   - clock: The clock that measures it.
  /// - Returns: The debounced signal. It keeps this one followed for as long as it lives.
  public func debounce<C: Clock & Sendable>(for dueTime: C.Duration, clock: C) -> Signal<Element>
  where C.Duration: Sendable {
    let timer = _SignalTimer<Element>()
    let output = timer.makeOutput()
    timer.follow(self, _SignalTimer.debouncing(for: dueTime, clock: clock))
    return Signal(node: output)
  }
}

/// The state behind a time operator (`debounce`, `throttle`): the events it holds, the task
/// that waits on the clock, and the subscription to its input, which it ends when it goes.
///
/// The operator's output is a source of events that owns this state: the state lives as long
/// as the output does (while the signal or any of its subscriptions lives), and holds the
/// output weakly, so the two form no cycle.
final class _SignalTimer<Element: Sendable>: @unchecked Sendable {
  // Safe: every mutable field is only touched while `lock` is held; `output` is a weak
  // reference (loaded atomically) to an engine node, which is safe from any thread.
  private let lock = Lock()
  /// Where the operator's events go: a source of events only this state writes.
  private weak var output: SourceNode<Element?>?
  private var token: SubscriptionToken?
  private var pending: Element?
  private var task: Task<Void, Never>?
  /// Counts the waits started: a wait that finds another started since delivers nothing.
  private var generation: UInt64 = 0
  /// Whether a throttle window is open (an event was delivered less than its interval ago).
  private var isWindowOpen = false

  deinit {
    task?.cancel()
    token?.cancel()
  }

  /// The step of `debounce` for each event: hold it, and deliver it once `dueTime` has
  /// passed without another.
  static func debouncing<C: Clock & Sendable>(
    for dueTime: C.Duration, clock: C
  ) -> @Sendable (_SignalTimer, Element) -> Void where C.Duration: Sendable {
    { timer, event in
      // The deadline is taken when the event arrives, not when the task first runs.
      let deadline = clock.now.advanced(by: dueTime)
      timer.replacePending(with: event) { generation in
        try? await clock.sleep(until: deadline, tolerance: nil)
        timer.emitPending(ifStill: generation)
      }
    }
  }

  /// Makes the output source, owning this state. Call once, before following the input.
  func makeOutput() -> SourceNode<Element?> {
    let output = SourceNode<Element?>(events: Element.self, origin: .kind("timer"))
    output.owner = self
    self.output = output
    return output
  }

  /// Subscribes to `input`: `receive` handles each event; when `input` ends, an event still
  /// waiting is delivered and the output ends.
  func follow(
    _ input: Signal<Element>, _ receive: @escaping @Sendable (_SignalTimer, Element) -> Void
  ) {
    let token = input.subscribe { [weak self] event in
      if let self { receive(self, event) }
    } onCompleted: { [weak self] in
      guard let self else { return }
      self.emitPending(ifStill: nil)
      self.output?.complete()
    }
    lock.lock()
    self.token = token
    lock.unlock()
  }

  /// Subscribes to `property`: `receive` handles each change; its value when subscribed is
  /// not one (the caller reads it, after this returns, as the output's first value). When
  /// `property` ends, an event still waiting is delivered and the output ends.
  func followChanges(
    of property: Property<Element>, _ receive: @escaping @Sendable (_SignalTimer, Element) -> Void
  ) {
    let first = _FirstValue()
    let token = property.subscribe { [weak self] value in
      guard let self, !first.isFirst() else { return }
      receive(self, value)
    } onCompleted: { [weak self] in
      guard let self else { return }
      self.emitPending(ifStill: nil)
      self.output?.complete()
    }
    lock.lock()
    self.token = token
    lock.unlock()
  }

  /// Holds `event` in place of any event waiting, and starts a new wait with `wait`, which
  /// is given the new wait's generation.
  func replacePending(
    with event: Element, _ wait: @escaping @Sendable (UInt64) async -> Void
  ) {
    lock.lock()
    pending = event
    generation &+= 1
    let current = generation
    task?.cancel()
    task = _startTask { await wait(current) }
    lock.unlock()
  }

  /// Delivers the event waiting, if the wait `generation` is still the latest (`nil`: any).
  /// Returns whether it delivered one.
  @discardableResult
  func emitPending(ifStill generation: UInt64?) -> Bool {
    guard let event = takePending(ifStill: generation, closingWindowIfNone: false) else {
      return false
    }
    output?.emit(event, file: #fileID, line: #line)
    return true
  }

  /// Takes the event waiting, if the wait `generation` is still the latest (`nil`: any);
  /// with none to take, closes the throttle window if asked, in the same locked step (an
  /// event arriving meanwhile then opens a new window rather than waiting in a closed one).
  private func takePending(ifStill generation: UInt64?, closingWindowIfNone: Bool) -> Element? {
    lock.lock()
    defer { lock.unlock() }
    guard generation == nil || generation == self.generation, let event = pending else {
      if closingWindowIfNone { isWindowOpen = false }
      return nil
    }
    pending = nil
    return event
  }

  /// For `throttle`: delivers `event` at once and opens a window if none is open (returning
  /// `true`, so the caller starts the window's wait); otherwise, if `keepingLatest`, holds it
  /// for the window's end.
  func openWindow(with event: Element, keepingLatest: Bool) -> Bool {
    lock.lock()
    guard !isWindowOpen else {
      if keepingLatest { pending = event }
      lock.unlock()
      return false
    }
    isWindowOpen = true
    lock.unlock()
    output?.emit(event, file: #fileID, line: #line)
    return true
  }

  /// For `throttle`: at a window's end, delivers the event held, if any, and keeps the window
  /// open for another interval (returning `true`); otherwise closes it.
  func endWindow() -> Bool {
    guard let event = takePending(ifStill: nil, closingWindowIfNone: true) else { return false }
    output?.emit(event, file: #fileID, line: #line)
    return true
  }

  /// Starts `wait` as the current task (a throttle window).
  func start(_ wait: @escaping @Sendable () async -> Void) {
    lock.lock()
    task?.cancel()
    task = _startTask { await wait() }
    lock.unlock()
  }
}

/// Tells the first call from the others: a property subscriber's first value is the value it
/// subscribed at, not a change.
final class _FirstValue: @unchecked Sendable {
  // Safe: `seen` is only touched while `lock` is held.
  private let lock = Lock()
  private var seen = false

  /// Whether this is the first call.
  func isFirst() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    defer { seen = true }
    return !seen
  }
}
