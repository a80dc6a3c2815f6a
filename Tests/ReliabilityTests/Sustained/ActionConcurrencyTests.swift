import Foundation
import Invalidating
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `Action`'s refusal is atomic: threads that apply one action at once never start two
/// executions, every execution they were told started runs and delivers once, and the state
/// they read afterwards is the state their writes left.
@Suite("Sustained load: an Action applied from several threads at once")
struct ActionConcurrencyTests {
  /// What the action's work saw: executions started, in flight at once at most.
  final class Executions: Sendable {
    private let state = Mutex((started: 0, inFlight: 0, mostInFlight: 0))
    func begin() {
      state.withLock {
        $0.started += 1
        $0.inFlight += 1
        $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
      }
    }
    func end() { state.withLock { $0.inFlight -= 1 } }
    var started: Int { state.withLock { $0.started } }
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }
  }

  @Test("Four threads applying at once: one execution at a time, each accepted one runs once")
  func atomicRefusal() async {
    let executions = Executions()
    let action = Action { (thread: Int) in
      executions.begin()
      await Task.yield()
      executions.end()
      return thread
    }
    let delivered = DispatchSemaphore(value: 0)
    let deliveries = Mutex(0)
    let token = action.values.subscribe { _ in
      deliveries.withLock { $0 += 1 }
      delivered.signal()
    }
    let accepted = Mutex(0)
    let threads = 4
    let attempts = 2_000
    // Each thread applies `attempts` times, as fast as it can: most applies meet an execution
    // in flight, started by any thread. (A fixed count, not "until n were accepted": with the
    // whole suite running, the executions' tasks may wait long for a thread of the pool.)
    await onThreads(threads) { thread in
      for _ in 0..<attempts {
        if action.apply(thread) {
          accepted.withLock { $0 += 1 }
        } else {
          // Refused: let the execution's task have a core (the machine may have two).
          sched_yield()
        }
      }
    }
    // Each accepted execution delivers its value once; wait for them all (bounded, so that a
    // lost execution fails the test instead of hanging it), off the tasks' threads.
    let total = accepted.withLock { $0 }
    let arrived = await offThePool {
      var arrived = 0
      while arrived < total,
        delivered.wait(timeout: .now() + 30 * Sustained.slowdown) == .success
      {
        arrived += 1
      }
      return arrived
    }
    print("sustained: \(threads) threads, \(total) executions accepted")
    #expect(total > 0)
    #expect(arrived == total)
    #expect(executions.started == total)
    #expect(executions.mostInFlight == 1)
    #expect(deliveries.withLock { $0 } == total)
    #expect(!action.isExecuting.value)
    #expect(action.isEnabled.value)
    _ = token
  }

  @Test("enabledIf switched off by one thread while others apply: no start after it is seen off")
  func disablingWhileApplying() async {
    let enabled = BehaviorRelay(true)
    let executions = Executions()
    let action = Action(enabledIf: enabled) { (_: Int) in
      executions.begin()
      executions.end()
    }
    let startedAfterOff = Mutex(0)
    await onThreads(4) { thread in
      if thread == 0 {
        for _ in 0..<200 { action.apply(0) }
        enabled.accept(false)
        return
      }
      var sawOff = false
      for _ in 0..<2_000 {
        if !enabled.value { sawOff = true }
        // Once this thread has read the switch off, the action must refuse it.
        if action.apply(thread), sawOff { startedAfterOff.withLock { $0 += 1 } }
      }
    }
    #expect(startedAfterOff.withLock { $0 } == 0)
    #expect(!action.isEnabled.value)
    #expect(!action.apply(9))
  }
}

/// Runs `body` on `count` threads of their own (not the dispatch pool's: the tasks of the
/// actions' work need those), with each thread's index, and waits for them all without
/// blocking a thread of the tasks' pool (on two cores it has two, and the test runner may hold
/// the other: a blocked wait there left no thread for the executions, which never ended).
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
  await offThePool {
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
      Thread {
        body(index)
        done.signal()
      }.start()
    }
    for _ in 0..<count { done.wait() }
  }
}

/// Runs `body`, which blocks, on a thread of its own, and returns its result once it is done.
private func offThePool<Result: Sendable>(
  _ body: @escaping @Sendable () -> Result
) async -> Result {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}
