import InvalidatingCore
import InvalidatingPlatform

/// Runs a main-actor sink with the values of an engine sink: at once when the value arrives on
/// the main actor, after one hop otherwise, never an older value after a newer one.
///
/// The engine calls ``receive(_:)`` in delivery order and never concurrently with itself. A
/// value is stored as `pending`, replacing any value not yet delivered, and then delivered by a
/// *flush* on the main actor: at once if it arrived there, otherwise in a main-actor task
/// (one at a time: a task is scheduled only when none is). A flush delivers the pending value
/// and any that arrives while the sink runs, so the calls follow the writes' order and end on
/// the last one. A flush never starts inside another (a sink whose write is delivered to it on
/// the main actor finds its value picked up by the running flush when it returns), so the sink
/// never runs nested in itself.
///
/// Tasks hold the driver weakly: once the subscription is cancelled (which releases the engine's
/// sink, the only strong owner) a waiting value is dropped. When the property completes
/// instead, the driver keeps itself alive until the value left has been delivered.
final class _MainActorDriver<Value>: @unchecked Sendable {
  // Safe: `pending`, `isHopScheduled` and `keepAlive` are only touched while `lock` is held;
  // values move from the engine's thread to the main actor through them, as the engine itself
  // moves them between threads. `isFlushing` and `sink` belong to the main actor.
  private let lock = Lock()
  /// The newest value not yet delivered.
  private var pending: Value?
  /// While a tracer records: the cause of `pending`, for the sink to run with on the main
  /// actor.
  private var pendingCause: Cause?
  /// Whether a main-actor task is scheduled to flush.
  private var isHopScheduled = false
  /// This driver, once the property completed and while a value is left to deliver.
  private var keepAlive: _MainActorDriver?
  /// Whether a flush is running (a sink call is on the stack).
  @MainActor private var isFlushing = false
  private let sink: @MainActor (Value) -> Void

  /// How many sink calls one flush makes at most before it lets the main actor run other work
  /// (a writer faster than the sink must not hold the main actor for ever).
  static var callsPerFlush: Int { 64 }

  init(_ sink: @escaping @MainActor (Value) -> Void) {
    self.sink = sink
  }

  /// Takes a value from the engine, on whatever thread delivers it.
  func receive(_ value: Value) {
    let cause = Tracing.isOn ? ThreadContext.current.traceCause : nil
    lock.lock()
    pending = value
    pendingCause = cause
    lock.unlock()
    if _MainThread.isCurrent {
      MainActor.assumeIsolated { flush() }
    } else {
      scheduleHop()
    }
  }

  /// The property completed: the engine drops its sink, which owned the driver, so the driver
  /// keeps itself alive until the value left (if any) has been delivered.
  func complete() {
    lock.lock()
    if pending != nil { keepAlive = self }
    lock.unlock()
  }

  private func scheduleHop() {
    lock.lock()
    let mustSchedule = !isHopScheduled
    isHopScheduled = true
    lock.unlock()
    guard mustSchedule else { return }
    // Followed by work tracking, so that a test clock waits for the hop.
    _startMainActorTask { [weak self] in
      guard let self else { return }
      lock.lock()
      isHopScheduled = false
      lock.unlock()
      flush()
    }
  }

  /// Delivers the pending value, and the newer ones that arrive while the sink runs; does
  /// nothing when called from inside a flush, which picks the value up itself.
  @MainActor
  func flush() {
    guard !isFlushing else { return }
    isFlushing = true
    defer { isFlushing = false }
    for _ in 0..<Self.callsPerFlush {
      guard let (value, cause) = take() else { return }
      if let cause {
        Tracing.with(cause, ThreadContext.current) { sink(value) }
      } else {
        sink(value)
      }
    }
    // A writer on another thread kept the sink busy: let the main actor breathe first.
    if hasPending { scheduleHop() }
  }

  /// Takes the value to deliver, letting go of `keepAlive` once nothing is left.
  private func take() -> (Value, Cause?)? {
    lock.lock()
    let value = pending.take()
    let cause = pendingCause.take()
    let released = value == nil ? keepAlive.take() : nil
    lock.unlock()
    withExtendedLifetime(released) {}  // let go outside the lock
    return value.map { ($0, cause) }
  }

  private var hasPending: Bool {
    lock.lock()
    defer { lock.unlock() }
    return pending != nil
  }

  /// Subscribes a driver of `sink` to `node`; the caller flushes it, on the main actor, to
  /// deliver a first value that another thread took (see `drive`).
  static func subscribe(
    to node: ValueNode<Value>, _ sink: @escaping @MainActor (Value) -> Void
  ) -> (SubscriptionToken, _MainActorDriver) {
    let driver = _MainActorDriver(sink)
    let token = node.subscribe(
      emitsCurrentValue: true,
      onCompletion: { [driver] in driver.complete() },
      { [driver] value in driver.receive(value) })
    return (token, driver)
  }
}
