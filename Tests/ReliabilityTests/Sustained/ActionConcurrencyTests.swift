import Foundation
import Invalidating
import InvalidatingTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `Action`'s refusal is atomic: threads that apply one action at once never start two
/// executions (while one is in flight every apply is refused), every execution they were told
/// started runs and delivers once, and the state they read afterwards is the state their
/// writes left.
@Suite("Sustained load: an Action applied from several threads at once")
struct ActionConcurrencyTests {
  /// What the action's work saw: executions started, in flight at once at most.
  final class Executions: Sendable {
    private let state = Locked((started: 0, inFlight: 0, mostInFlight: 0))
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

  /// Holds the work of one round until the test opens it: while it is shut, the execution the
  /// round accepted is in flight, whether its task has run yet or not.
  final class Gate: Sendable {
    private let state = Locked<(isOpen: Bool, waiter: CheckedContinuation<Void, Never>?)>(
      (false, nil))

    /// Returns once the gate is open.
    func pass() async {
      await withCheckedContinuation { continuation in
        let isOpen = state.withLock { state in
          if !state.isOpen { state.waiter = continuation }
          return state.isOpen
        }
        if isOpen { continuation.resume() }
      }
    }

    func open() {
      let waiter = state.withLock { state in
        state.isOpen = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume()
    }
  }

  /// Which thread applied, in which round.
  struct Applied: Hashable, Sendable {
    let round: Int
    let thread: Int
  }

  /// One apply: who made it, and the gate its work waits at.
  struct Attempt: Sendable {
    let applied: Applied
    let gate: Gate
  }

  /// Holds threads until all of them have arrived, so that their applies meet.
  final class StartLine: Sendable {
    private let arrived = Atomic(0)
    private let count: Int
    init(_ count: Int) { self.count = count }

    func wait() {
      arrived.add(1, ordering: .acquiringAndReleasing)
      while arrived.load(ordering: .acquiring) < count { sched_yield() }
    }
  }

  @Test("Four threads applying at once: exactly one accepted while it executes, each delivers once")
  func atomicRefusal() async {
    let executions = Executions()
    let action = Action { (attempt: Attempt) in
      executions.begin()
      await attempt.gate.pass()
      executions.end()
      return attempt.applied
    }
    let delivered = DispatchSemaphore(value: 0)
    let deliveries = Locked<[Applied]>([])
    let token = action.values.subscribe { applied in
      deliveries.withLock { $0.append(applied) }
      delivered.signal()
    }
    let (threads, rounds, attempts) = (4, 100, 200)
    var accepted: [Applied] = []
    var roundsNotAcceptingOne: [Int] = []
    var refused = 0
    var stateWhileShut: [(isExecuting: Bool, isEnabled: Bool)] = []
    var arrived = 0
    // Each round: the threads, released at once, apply `attempts` times each while the work
    // of the execution accepted waits at the round's gate, shut. The first apply of a round
    // finds the action idle (the previous round's execution has delivered), so exactly one
    // is accepted, and every other is refused: it is made while that execution is in flight,
    // by construction, however soon or late its task runs. A check-then-act race accepts a
    // second. Then the gate opens, and the accepted execution delivers, once.
    for round in 0..<rounds {
      let gate = Gate()
      let startLine = StartLine(threads)
      let outcomes = Locked<(accepted: [Applied], refused: Int)>(([], 0))
      await onThreads(threads) { thread in
        startLine.wait()
        for _ in 0..<attempts {
          let applied = Applied(round: round, thread: thread)
          if action.apply(Attempt(applied: applied, gate: gate)) {
            outcomes.withLock { $0.accepted.append(applied) }
          } else {
            outcomes.withLock { $0.refused += 1 }
          }
        }
      }
      let (acceptedNow, refusedNow) = outcomes.withLock { ($0.accepted, $0.refused) }
      accepted += acceptedNow
      refused += refusedNow
      if acceptedNow.count != 1 { roundsNotAcceptingOne.append(round) }
      stateWhileShut.append((action.isExecuting.value, action.isEnabled.value))
      gate.open()
      // Bounded, so that a lost execution fails the test instead of hanging it; off the
      // tasks' threads, which the execution needs.
      let expected = acceptedNow.count
      arrived += await offThePool {
        var arrived = 0
        while arrived < expected,
          delivered.wait(timeout: .now() + 30 * Sustained.slowdown) == .success
        {
          arrived += 1
        }
        return arrived
      }
      if arrived != accepted.count { break }
    }
    print(
      "sustained: \(threads) threads, \(accepted.count) executions accepted, \(refused) refused")
    #expect(roundsNotAcceptingOne.isEmpty)
    #expect(accepted.count == rounds)
    #expect(refused == rounds * (threads * attempts - 1))
    #expect(stateWhileShut.allSatisfy { $0.isExecuting && !$0.isEnabled })
    #expect(arrived == accepted.count)
    #expect(deliveries.withLock { $0 } == accepted)
    #expect(executions.started == accepted.count)
    #expect(executions.mostInFlight == 1)
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
    let startedAfterOff = Locked(0)
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
