import InvalidatingCore

/// A clock whose time moves only when a test calls `advance(by:)`, so that tests of time
/// operators (`debounce`, `throttle`) control time instead of sleeping.
///
/// ```swift
/// let clock = ManualClock()
/// let quiet = edits.debounce(for: .seconds(1), clock: clock)
/// edits.accept("a")
/// await clock.waitForSleepers(1)     // the operator is waiting on the clock
/// clock.advance(by: .seconds(1))     // ...and now its wait is over
/// ```
public final class ManualClock: Clock, @unchecked Sendable {
  // Safe: every field is read and written only while `lock` is held.

  /// A point on the manual clock: the time advanced since it started.
  public struct Instant: InstantProtocol {
    /// The time since the clock started.
    public var offset: Duration

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private let lock = Lock()
  private var current = Instant(offset: .zero)
  private var sleepers:
    [(id: Int, deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] =
      []
  private var nextID = 0
  private var sleeperWaits: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  /// Creates a clock at time zero.
  public init() {}

  /// The current instant.
  public var now: Instant {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  /// The smallest step: any duration can be advanced by.
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return sleepers.count
  }

  /// Suspends until the clock reaches `deadline`, or throws `CancellationError` if the task is
  /// cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id: Int = lock.withHeld {
      nextID += 1
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        lock.lock()
        if Task.isCancelled {
          lock.unlock()
          continuation.resume(throwing: CancellationError())
          return
        }
        if deadline <= current {
          lock.unlock()
          continuation.resume()
          return
        }
        sleepers.append((id, deadline, continuation))
        let ready = takeSleeperWaits()
        lock.unlock()
        for waiter in ready { waiter.resume() }
      }
    } onCancel: {
      lock.lock()
      let index = sleepers.firstIndex { $0.id == id }
      let cancelled = index.map { sleepers.remove(at: $0).continuation }
      lock.unlock()
      cancelled?.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward by `duration`, waking every sleeper whose deadline has come.
  public func advance(by duration: Duration) {
    lock.lock()
    current = current.advanced(by: duration)
    var woken: [CheckedContinuation<Void, any Error>] = []
    sleepers.removeAll { sleeper in
      guard sleeper.deadline <= current else { return false }
      woken.append(sleeper.continuation)
      return true
    }
    lock.unlock()
    for continuation in woken { continuation.resume() }
  }

  /// Returns once at least `count` tasks are sleeping on the clock.
  public func waitForSleepers(_ count: Int) async {
    await withCheckedContinuation { continuation in
      lock.lock()
      if sleepers.count >= count {
        lock.unlock()
        continuation.resume()
        return
      }
      sleeperWaits.append((count, continuation))
      lock.unlock()
    }
  }

  /// Removes the waits that the sleepers now satisfy. Lock.
  private func takeSleeperWaits() -> [CheckedContinuation<Void, Never>] {
    var ready: [CheckedContinuation<Void, Never>] = []
    sleeperWaits.removeAll { wait in
      guard wait.count <= sleepers.count else { return false }
      ready.append(wait.continuation)
      return true
    }
    return ready
  }
}

extension Lock {
  /// Runs `body` with the lock held.
  fileprivate func withHeld<Result>(_ body: () -> Result) -> Result {
    lock()
    defer { unlock() }
    return body()
  }
}
