import InvalidatingBinding
import InvalidatingCore
import InvalidatingPlatform

/// Hands the values of an engine sink to a main-actor handler, in order.
///
/// A value that arrives on the main thread is handled at once, inside the engine's delivery, so
/// that the view invalidations it causes are deduplicated with the rest of the batch. A value
/// that arrives on another thread waits in a first-in, first-out queue that one main-actor task
/// drains; the drain runs as a `batch`, so a burst of values costs each view one invalidation
/// of each kind. A value arriving on the main thread while others wait is queued behind them
/// and the queue is drained at once: the handler always sees the values in delivery order.
final class _MainActorInbox<Value: Sendable>: @unchecked Sendable {
  // Safe: `pending` and `isDrainScheduled` are only touched while `lock` is held; `handle` is
  // immutable and only called on the main actor.
  private let lock = Lock()
  private var pending: [Value] = []
  /// While a tracer records: the causes of values in `pending`, by their index there, for the
  /// handler to run with on the main actor.
  private var causes: [Int: Cause] = [:]
  private var isDrainScheduled = false
  private let handle: @MainActor @Sendable (Value) -> Void

  /// Creates an inbox for `handle`.
  @MainActor
  init(_ handle: @escaping @MainActor @Sendable (Value) -> Void) {
    self.handle = handle
  }

  /// Takes a value from the engine, on whatever thread delivers it.
  func receive(_ value: Value) {
    if _MainThread.isCurrent {
      MainActor.assumeIsolated { receiveOnMainActor(value) }
      return
    }
    let cause = Tracing.isOn ? ThreadContext.current.traceCause : nil
    lock.lock()
    if let cause { causes[pending.count] = cause }
    pending.append(value)
    let mustSchedule = !isDrainScheduled
    isDrainScheduled = true
    lock.unlock()
    if mustSchedule {
      // Followed by work tracking, so that a test clock waits for the hop.
      _startMainActorTask { [weak self] in self?.drain() }
    }
  }

  @MainActor
  private func receiveOnMainActor(_ value: Value) {
    lock.lock()
    guard pending.isEmpty else {
      if Tracing.isOn, let cause = ThreadContext.current.traceCause {
        causes[pending.count] = cause
      }
      pending.append(value)
      lock.unlock()
      drain()
      return
    }
    lock.unlock()
    handle(value)
  }

  /// Handles every waiting value, oldest first, including those that arrive meanwhile.
  @MainActor
  private func drain() {
    batch {
      while true {
        lock.lock()
        let values = pending
        let causes = causes
        pending.removeAll()
        self.causes.removeAll()
        if values.isEmpty { isDrainScheduled = false }
        lock.unlock()
        if values.isEmpty { return }
        guard !causes.isEmpty else {
          for value in values { handle(value) }
          continue
        }
        let context = ThreadContext.current
        for (index, value) in values.enumerated() {
          Tracing.with(causes[index], context) { handle(value) }
        }
      }
    }
  }
}
