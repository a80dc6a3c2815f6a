import InvalidatingBinding
import InvalidatingCore
import InvalidatingTesting
import Synchronization
import Testing

@Suite("Action: enabled, executing, values and errors")
struct ActionTests {
  @Test("An action runs once at a time; isExecuting and isEnabled follow it")
  func executesOnceAtATime() async {
    let clock = TestClock()
    let runs = Mutex<[Int]>([])
    let double = Action { (number: Int) in
      runs.withLock { $0.append(number) }
      try await clock.sleep(for: .seconds(1))
      return number * 2
    }
    let executing = Recorder(double.isExecuting, clock: clock)
    let values = Recorder(double.values, clock: clock)
    #expect(double.apply(1))
    #expect(!double.apply(2))
    #expect(double.isExecuting.value)
    #expect(!double.isEnabled.value)
    await clock.advance(by: .seconds(1))
    #expect(double.apply(3))
    await clock.advance(by: .seconds(1))
    #expect(runs.withLock { $0 } == [1, 3])
    #expect(values.records == [Recorded(.seconds(1), 2), Recorded(.seconds(2), 6)])
    #expect(
      executing.records == [
        Recorded(.zero, false), Recorded(.zero, true), Recorded(.seconds(1), false),
        Recorded(.seconds(1), true), Recorded(.seconds(2), false),
      ])
    #expect(double.isEnabled.value)
  }

  @Test("enabledIf gates the action; a disabled apply does nothing and execute throws")
  func enabledIfGates() async throws {
    let clock = TestClock()
    let formIsValid = BehaviorRelay(false)
    let submit = Action(enabledIf: formIsValid) { (text: String) in text.uppercased() }
    #expect(!submit.isEnabled.value)
    #expect(!submit.apply("no"))
    await #expect(throws: ActionDisabledError.self) { try await submit.execute("no") }
    formIsValid.accept(true)
    #expect(submit.isEnabled.value)
    #expect(try await submit.execute("yes") == "YES")
    await clock.settle()
    #expect(submit.isEnabled.value)
  }

  @Test("A failed execution delivers its error and leaves the action usable")
  func errorsAreValues() async throws {
    let clock = TestClock()
    let attempts = Mutex(0)
    let flaky = Action { (_: Void) in
      let attempt = attempts.withLock { count -> Int in
        count += 1
        return count
      }
      if attempt == 1 { throw ServiceError(reason: "first") }
      return attempt
    }
    let errors = Recorder(flaky.errors.map { ($0 as? ServiceError)?.reason })
    let values = Recorder(flaky.values)
    await #expect(throws: ServiceError(reason: "first")) { try await flaky.execute(()) }
    #expect(try await flaky.execute(()) == 2)
    await clock.settle()
    #expect(errors.values == ["first"])
    #expect(values.values == [2])
  }

  @Test("A sink of values sees isExecuting false and may apply the action again")
  func valuesSinkMayApplyAgain() async {
    let clock = TestClock()
    let countdown = Action { (number: Int) in number - 1 }
    let seen = Mutex<[String]>([])
    let token = countdown.values.subscribe { [countdown] value in
      seen.withLock { $0.append("\(value) executing: \(countdown.isExecuting.value)") }
      if value > 0 { countdown.apply(value) }
    }
    countdown.apply(3)
    // Each execution starts the next from its sink, as work of its own: settled once the
    // last one has ended.
    await clock.settle()
    #expect(
      seen.withLock { $0 } == [
        "2 executing: false", "1 executing: false", "0 executing: false",
      ])
    _ = token
  }

  @Test("Releasing an action cancels its execution; the outcome is not delivered")
  func releaseCancels() async {
    let clock = TestClock()
    let outcome = Mutex<String?>(nil)
    var action: Action<Void, Void>? = Action {
      do {
        try await clock.sleep(for: .seconds(1))
        outcome.withLock { $0 = "finished" }
      } catch {
        outcome.withLock { $0 = "cancelled" }
      }
    }
    let values = Recorder(action!.values)
    action?.apply(())
    await clock.settle()
    action = nil
    await clock.advance(by: .seconds(2))
    #expect(outcome.withLock { $0 } == "cancelled")
    #expect(values.values.isEmpty)
  }
}

@Suite("ActivityTracker: in-flight calls")
struct ActivityTrackerTests {
  @Test("A tracked call counts until it returns, throws or is cancelled")
  func countsInFlightCalls() async {
    let clock = TestClock()
    let activity = ActivityTracker()
    let active = Recorder(activity.isActive, clock: clock)
    let queries = PublishRelay<Int>()
    let done = queries.flatMap { seconds in
      try await activity.track {
        try await clock.sleep(for: .seconds(seconds))
        if seconds == 2 { throw ServiceError(reason: "two") }
        return seconds
      }
    }
    let recorded = Recorder(done.successes())
    queries.accept(1)
    queries.accept(2)
    await clock.settle()
    #expect(activity.count.value == 2)
    await clock.advance(by: .seconds(1))
    #expect(activity.count.value == 1)
    await clock.advance(by: .seconds(1))
    #expect(activity.count.value == 0)
    #expect(recorded.values == [1])
    #expect(
      active.records == [
        Recorded(.zero, false), Recorded(.zero, true), Recorded(.seconds(2), false),
      ])
  }
}
