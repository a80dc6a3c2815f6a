import InvalidatingBinding
import InvalidatingCore
import InvalidatingTesting
import Synchronization
import Testing

/// The four strategies of async work per element, on a test clock: which work runs, which is
/// cancelled, which results arrive, and when.
@Suite("Async work per element: latest, merge, concat, first")
struct AsyncWorkTests {
  @Test("flatMapLatest cancels the superseded request; its late result is never delivered")
  func latestCancelsTheSupersededRequest() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock, latency: .milliseconds(500))
    let queries = PublishRelay<String>()
    let results = queries.flatMapLatest { text in await api.searchIgnoringCancellation(text) }
    let recorded = Recorder(results, clock: clock)
    queries.accept("sw")
    await clock.advance(by: .milliseconds(100))
    queries.accept("swift")
    // "sw" runs to its end at 500 ms, after "swift" started: late, and dropped.
    await clock.advance(by: .seconds(1))
    #expect(api.log == ["start sw", "start swift", "late sw", "end swift"])
    #expect(recorded.records == [Recorded(.milliseconds(600), [Repository(name: "swift")])])
  }

  @Test("A superseded request that honours cancellation stops at once")
  func latestCancelsCooperativeWork() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    let queries = PublishRelay<String>()
    let recorded = Recorder(queries.flatMapLatest { try await api.search($0) }, clock: clock)
    queries.accept("a")
    queries.accept("ab")
    await clock.advance(by: .seconds(1))
    // The two tasks run at once: their lines interleave in any order.
    #expect(api.log.sorted() == ["cancel a", "end ab", "start a", "start ab"])
    #expect(recorded.values.map { try? $0.get() } == [(1...3).map { Repository(name: "ab-\($0)") }])
    #expect(recorded.records.map(\.time) == [.milliseconds(200)])
  }

  @Test("flatMap runs every element's work at once and delivers each as it finishes")
  func mergeRunsEverything() async {
    let jobs = SleepingJobs { input, work in input.flatMap(work) }
    jobs.send(3, 1, 2)
    await jobs.clock.advance(by: .seconds(5))
    #expect(
      jobs.recorded.records == [
        Recorded(.seconds(1), 1), Recorded(.seconds(2), 2), Recorded(.seconds(3), 3),
      ])
  }

  @Test("concatMap runs one element's work at a time, in order")
  func concatQueues() async {
    let jobs = SleepingJobs { input, work in input.concatMap(work) }
    jobs.send(3, 1, 2)
    await jobs.clock.advance(by: .seconds(10))
    #expect(
      jobs.recorded.records == [
        Recorded(.seconds(3), 3), Recorded(.seconds(4), 1), Recorded(.seconds(6), 2),
      ])
  }

  @Test("flatMapFirst drops the elements that arrive while work is in flight")
  func firstIgnoresWhileRunning() async {
    let clock = TestClock()
    let taps = PublishRelay<Int>()
    let started = Mutex<[Int]>([])
    let done = taps.flatMapFirst { tap in
      started.withLock { $0.append(tap) }
      try? await clock.sleep(for: .seconds(1))
      return tap
    }
    let recorded = Recorder(done, clock: clock)
    taps.accept(1)
    taps.accept(2)
    await clock.advance(by: .milliseconds(500))
    taps.accept(3)
    await clock.advance(by: .milliseconds(500))
    taps.accept(4)
    await clock.advance(by: .seconds(1))
    #expect(started.withLock { $0 } == [1, 4])
    #expect(recorded.records == [Recorded(.seconds(1), 1), Recorded(.seconds(2), 4)])
  }

  @Test("Errors are values: the signal goes on after one, retried as asked")
  func errorsAreValues() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    api.fail("a", times: 2)
    api.fail("b", times: 5)
    let queries = PublishRelay<String>()
    let results = queries.concatMap(attempts: 3) { try await api.search($0) }
    let names = Recorder(results.replaceError(with: []).map { $0.map(\.name) }, clock: clock)
    let errors = Recorder(results.failures().map { ($0 as? ServiceError)?.reason })
    let successes = Recorder(results.successes().map(\.count))
    queries.accept("a")
    queries.accept("b")
    queries.accept("c")
    await clock.advance(by: .seconds(5))
    // "a": two failures, then a success on the third try; "b": three tries, then an error;
    // "c" still runs.
    #expect(
      names.records == [
        Recorded(.milliseconds(600), ["a-1", "a-2", "a-3"]), Recorded(.milliseconds(1200), []),
        Recorded(.milliseconds(1400), ["c-1", "c-2", "c-3"]),
      ])
    #expect(errors.values == ["b failed"])
    #expect(successes.values == [3, 3])
  }

  @Test("A property's work starts for its value and for each change; the phase follows it")
  func propertyPhases() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    let username = BehaviorRelay("octocat")
    let availability = username.flatMapLatest { try await api.isAvailable($0) }
    let phases = Recorder(availability.map { $0.isRunning ? "running" : "\($0.value!)" })
    await clock.advance(by: .seconds(1))
    username.accept("new")
    await clock.advance(by: .milliseconds(100))
    username.accept("newer")
    await clock.advance(by: .seconds(1))
    #expect(phases.values == ["running", "false", "running", "running", "true"])
    #expect(
      api.log.sorted() == [
        "cancel available new", "end available newer", "end available octocat",
        "start available new", "start available newer", "start available octocat",
      ])
  }

  @Test("A property's first result is held, even when the work answers at once")
  func immediateFirstResultIsHeld() async {
    let clock = TestClock()
    // The work runs on another thread as soon as the operator is made: its result once came
    // before the node that holds the phase existed, and was lost (about one run in thirty).
    for round in 0..<200 {
      let number = BehaviorRelay(round)
      let doubled = number.flatMapLatest { $0 * 2 }
      await clock.settle()
      #expect(doubled.value.value == round * 2)
    }
  }

  @Test("A property's failed work is a phase; the next value starts the work again")
  func propertyFailureIsAPhase() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    api.fail("available a", times: 1)
    let username = BehaviorRelay("a")
    let availability = username.flatMapLatest { try await api.isAvailable($0) }
    await clock.advance(by: .seconds(1))
    #expect((availability.value.error as? ServiceError)?.reason == "available a failed")
    username.accept("b")
    #expect(availability.value.isRunning)
    await clock.advance(by: .seconds(1))
    #expect(availability.value.value == true)
  }

  @Test("Work is cancelled once nothing observes its result")
  func unobservedWorkIsCancelled() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    let queries = PublishRelay<String>()
    var results: Signal<Result<[Repository], any Error>>? = queries.flatMapLatest {
      try await api.search($0)
    }
    weak let weakResults = results
    queries.accept("a")
    await clock.settle()
    results = nil
    #expect(weakResults == nil)
    await clock.advance(by: .seconds(1))
    #expect(api.log == ["start a", "cancel a"])
  }

  @Test("A property's work is cancelled once nothing observes its phase")
  func unobservedPropertyWorkIsCancelled() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    let username = BehaviorRelay("mona")
    var availability: Property<AsyncPhase<Bool>>? = username.flatMapLatest {
      try await api.isAvailable($0)
    }
    await clock.settle()
    #expect(availability?.value.isRunning == true)
    availability = nil
    await clock.advance(by: .seconds(1))
    #expect(api.log == ["start available mona", "cancel available mona"])
  }

  @Test("When the input ends, the work in flight delivers, then the output ends")
  func inputEndEndsOutputAfterTheWork() async {
    let jobs = SleepingJobs { input, work in input.concatMap(work) }
    jobs.send(1, 2)
    jobs.endInput()
    await jobs.clock.settle()
    #expect(!jobs.recorded.isCompleted)
    await jobs.clock.advance(by: .seconds(3))
    #expect(jobs.recorded.values == [1, 2])
    #expect(jobs.recorded.isCompleted)
  }

  @Test("startWith events and a property's value start work when the operator is made")
  func startEventsStartWork() async {
    let clock = TestClock()
    let refresh = PublishRelay<Void>()
    let query = BehaviorRelay("first")
    // The work waits on the clock: the recorders subscribe before any of it delivers.
    let reloaded = Recorder(
      refresh.startWith(()).flatMapLatest {
        try? await clock.sleep(for: .seconds(1))
        return "reloaded"
      })
    let searched = Recorder(
      query.valueAndChanges.flatMapLatest { text in
        try? await clock.sleep(for: .seconds(1))
        return "results for \(text)"
      })
    await clock.advance(by: .seconds(1))
    #expect(reloaded.values == ["reloaded"])
    #expect(searched.values == ["results for first"])
    query.accept("second")
    await clock.advance(by: .seconds(1))
    #expect(searched.values == ["results for first", "results for second"])
  }
}
