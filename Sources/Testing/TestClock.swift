import InvalidatingBinding
import InvalidatingCore

/// A clock whose time moves only when a test advances it, and whose `advance(by:)` returns
/// once the work it caused is done: tests of `debounce`, `throttle`, async work and actions
/// with no polling and no `Task.sleep` (RxTest's and ReactiveSwift's `TestScheduler`).
///
/// ```swift
/// let clock = TestClock()
/// let model = SearchViewModel(api: FakeAPI(clock: clock), clock: clock)
/// let recorded = Recorder(model.results, clock: clock)
/// model.query.accept("swift")
/// await clock.advance(by: .milliseconds(300))   // the debounce fires, the search runs
/// #expect(recorded.values == [[], ["swift-log"]])
/// ```
///
/// `advance(by:)` first waits for the work under way to finish or to sleep on this clock (so
/// a sleep starts from the right instant), then moves time to each deadline that falls in the
/// interval, in order, waking one sleeper at a time and waiting again for the work it causes,
/// and finally moves time to the end of the interval. The work waited for is every task the
/// package starts (the time operators' waits, the async operators' and actions' work, the
/// main-actor hops of `drive` and `emit`) from the test's task, and the tasks those start in
/// turn, and those of the sleepers it wakes. A task counts until it finishes or sleeps on a
/// test clock: work that waits for something else (an actor, a continuation, a real clock) is
/// waited for. Nothing is polled: each task reports when it starts, sleeps, wakes and ends.
///
/// > Important: Work that waits on something only the test provides, after the call (a
/// > continuation the test resumes later), keeps `advance(by:)` waiting: make test doubles
/// > wait on the clock instead (`try await clock.sleep(for: latency)`).
///
/// Tasks of your own (`Task { }`) that sleep on the clock are woken in turn, but are not
/// waited for once awake: only the package's tasks report their work.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class TestClock: Clock, @unchecked Sendable {
  // Safe: every mutable field is only touched while `lock` is held.

  /// A point on the test clock: the time advanced since it was made.
  public struct Instant: InstantProtocol, Sendable {
    /// The time since the clock was made.
    public var offset: Duration

    /// The instant `offset` after the clock was made.
    ///
    /// - Parameter offset: The time since the clock was made.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: How much later.
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

    /// The time from this instant to `other`.
    ///
    /// - Parameter other: The other instant.
    /// - Returns: How long after this one `other` is (negative if before).
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Whether `lhs` comes before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: An instant.
    ///   - rhs: Another instant.
    /// - Returns: Whether `lhs` is earlier.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  /// A task asleep on the clock.
  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
    /// The package's task that sleeps, if it is one: it counts again once woken.
    let unit: WorkUnit?
  }

  private let lock = Lock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var nextID: UInt64 = 0

  /// Creates a clock at time zero.
  ///
  /// From then on, the package's tasks report their work (see ``TestClock``), in this process.
  public init() {
    WorkTracking.enable()
  }

  /// The current instant.
  public var now: Instant {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  /// The smallest step: any duration can be advanced by.
  public var minimumResolution: Duration { .zero }

  /// The time advanced since the clock was made.
  public var elapsed: Duration { now.offset }

  /// Suspends until the clock reaches `deadline`, or throws `CancellationError` if the task is
  /// cancelled first.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wake at; at once if it has passed.
  ///   - tolerance: Ignored: a test clock is exact.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let unit = WorkTracking.current
    let id: UInt64 = lock.withHeld {
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
        sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation, unit: unit))
        // Asleep: an `advance` no longer waits for it (under the clock's lock, so that a wake
        // cannot come first).
        unit?.scope.unitSleeps()
        lock.unlock()
      }
    } onCancel: {
      lock.lock()
      let index = sleepers.firstIndex { $0.id == id }
      let cancelled = index.map { sleepers.remove(at: $0) }
      lock.unlock()
      guard let cancelled else { return }
      // Awake before it resumes: whoever cancelled it waits for it to end.
      cancelled.unit?.scope.unitWakes()
      cancelled.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward by `duration`, and returns once every deadline in that interval
  /// has been reached and every piece of work it caused is done (see ``TestClock``).
  ///
  /// - Parameter duration: How far to move; `.zero` only waits for the work under way.
  public func advance(by duration: Duration) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves the clock forward to `deadline` (see ``advance(by:)``); an instant that has passed
  /// only waits for the work under way.
  ///
  /// - Parameter deadline: The instant to move to.
  public func advance(to deadline: Instant) async {
    var scopes = [WorkTracking.currentScope()]
    while true {
      await Self.waitUntilIdle(scopes)
      guard let woken = wakeNext(notAfter: deadline) else { break }
      if let scope = woken.unit?.scope, !scopes.contains(where: { $0 === scope }) {
        scopes.append(scope)
      }
      woken.continuation.resume()
    }
    lock.withHeld { if current < deadline { current = deadline } }
    await Self.waitUntilIdle(scopes)
  }

  /// Returns once the work under way has finished or sleeps on a test clock, without moving
  /// time: after a step whose work needs no time (an action whose test double answers at once).
  public func settle() async {
    await advance(by: .zero)
  }

  /// The sleeper with the earliest deadline not after `deadline` (the first to sleep, among
  /// equal ones), taken from the list and counted again, with the clock moved to its deadline.
  private func wakeNext(notAfter deadline: Instant) -> Sleeper? {
    lock.lock()
    defer { lock.unlock() }
    var next: Int?
    for (index, sleeper) in sleepers.enumerated() where sleeper.deadline <= deadline {
      if let best = next, sleepers[best].deadline <= sleeper.deadline { continue }
      next = index
    }
    guard let next else { return nil }
    let sleeper = sleepers.remove(at: next)
    if current < sleeper.deadline { current = sleeper.deadline }
    sleeper.unit?.scope.unitWakes()
    return sleeper
  }

  /// Returns once every scope of `scopes` is idle at the same time.
  private static func waitUntilIdle(_ scopes: [WorkScope]) async {
    repeat {
      for scope in scopes { await scope.waitUntilIdle() }
    } while !scopes.allSatisfy(\.isIdle)
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
