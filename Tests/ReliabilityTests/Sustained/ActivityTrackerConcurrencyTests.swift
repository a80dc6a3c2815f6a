import Invalidating
import Synchronization
import Testing

/// `ActivityTracker` counts exactly under concurrency and cancellation: tasks on every thread
/// of the pool track calls at once, each reads a count that includes itself, and cancelling
/// them brings the count back to zero with no value out of range on the way.
@Suite("Sustained load: an ActivityTracker under concurrent calls and cancellation")
struct ActivityTrackerConcurrencyTests {
  @Test("200 tracked calls at once, then cancelled in two halves: counts exact at each step")
  func concurrentCallsAndCancellation() async {
    let activity = ActivityTracker()
    let seen = Mutex<[Int]>([])
    let token = activity.count.subscribe { count in seen.withLock { $0.append(count) } }
    let (entered, enteredContinuation) = AsyncStream<Bool>.makeStream()
    let calls = 200
    var tasks: [Task<Void, Never>] = []
    for _ in 0..<calls {
      tasks.append(
        Task.detached {
          try? await activity.track {
            // The count includes this call: read from inside it, on whatever thread runs it.
            enteredContinuation.yield(activity.count.value >= 1)
            try await untilCancelled()
          }
        })
    }
    var insideCounts: [Bool] = []
    for await sawItself in entered {
      insideCounts.append(sawItself)
      if insideCounts.count == calls { break }
    }
    #expect(insideCounts.allSatisfy { $0 })
    #expect(activity.count.value == calls)
    #expect(activity.isActive.value)
    for task in tasks.prefix(calls / 2) { task.cancel() }
    for task in tasks.prefix(calls / 2) { await task.value }
    #expect(activity.count.value == calls / 2)
    for task in tasks.suffix(calls / 2) { task.cancel() }
    for task in tasks { await task.value }
    #expect(activity.count.value == 0)
    #expect(!activity.isActive.value)
    let values = seen.withLock { $0 }
    #expect(values.allSatisfy { (0...calls).contains($0) })
    #expect(values.count == 2 * calls + 1)  // 0, then one change per start and per end
    #expect(values.last == 0)
    _ = token
  }
}

/// Suspends until the task is cancelled, then throws `CancellationError`.
private func untilCancelled() async throws {
  let gate = Gate()
  await withTaskCancellationHandler {
    await withCheckedContinuation { gate.wait(with: $0) }
  } onCancel: {
    gate.open()
  }
  throw CancellationError()
}

/// A continuation resumed once, by whichever comes second: the wait or the opening.
private final class Gate: Sendable {
  private let state = Mutex<(opened: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

  func wait(with continuation: CheckedContinuation<Void, Never>) {
    let resumeNow = state.withLock { state -> Bool in
      if state.opened { return true }
      state.waiter = continuation
      return false
    }
    if resumeNow { continuation.resume() }
  }

  func open() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.opened = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
