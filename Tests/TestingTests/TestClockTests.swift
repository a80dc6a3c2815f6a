import Invalidating
import InvalidatingTesting
import Synchronization
import Testing

@Suite("TestClock: virtual time, and advance waits for the work it causes")
struct TestClockTests {
  @Test("advance wakes each sleeper at its deadline, in order, and the clock reads the time")
  func wakesInDeadlineOrder() async {
    let clock = TestClock()
    let taps = PublishRelay<String>()
    let log = Mutex<[String]>([])
    let slow = taps.flatMap { name in
      try? await clock.sleep(for: name == "a" ? .seconds(2) : .seconds(1))
      log.withLock { $0.append("\(name) at \(clock.elapsed)") }
      return name
    }
    let recorded = Recorder(slow, clock: clock)
    taps.accept("a")
    taps.accept("b")
    await clock.advance(by: .milliseconds(1500))
    #expect(recorded.values == ["b"])
    #expect(clock.elapsed == .milliseconds(1500))
    await clock.advance(by: .seconds(1))
    #expect(log.withLock { $0 } == ["b at 1.0 seconds", "a at 2.0 seconds"])
    #expect(recorded.records == [Recorded(.seconds(1), "b"), Recorded(.seconds(2), "a")])
  }

  @Test("Work that sleeps again after waking is followed to its next sleep, in one advance")
  func followsChainedSleeps() async {
    let clock = TestClock()
    let start = PublishRelay<Void>()
    let steps = start.flatMapLatest {
      var stamps: [Duration] = []
      for _ in 1...3 {
        try? await clock.sleep(for: .milliseconds(100))
        stamps.append(clock.elapsed)
      }
      return stamps
    }
    let recorded = Recorder(steps)
    start.accept(())
    await clock.advance(by: .milliseconds(300))
    #expect(recorded.values == [[.milliseconds(100), .milliseconds(200), .milliseconds(300)]])
  }

  @Test("debounce and throttle on the test clock need no waiting for their sleepers")
  func timeOperators() async {
    let clock = TestClock()
    let edits = PublishRelay<String>()
    let quiet = Recorder(edits.debounce(for: .milliseconds(300), clock: clock), clock: clock)
    let sampled = Recorder(edits.throttle(for: .milliseconds(250), clock: clock), clock: clock)
    for (index, edit) in ["a", "ab", "abc"].enumerated() {
      if index > 0 { await clock.advance(by: .milliseconds(100)) }
      edits.accept(edit)
    }
    await clock.advance(by: .seconds(1))
    #expect(quiet.records == [Recorded(.milliseconds(500), "abc")])
    #expect(sampled.records == [Recorded(.zero, "a"), Recorded(.milliseconds(250), "abc")])
  }

  @Test("settle waits for work that needs no time, without moving the clock")
  func settleWaitsForImmediateWork() async {
    let clock = TestClock()
    let numbers = PublishRelay<Int>()
    let squares = Recorder(numbers.flatMap { $0 * $0 })
    for number in 1...3 { numbers.accept(number) }
    await clock.settle()
    #expect(squares.values.sorted() == [1, 4, 9])
    #expect(clock.elapsed == .zero)
  }

  @Test("A main-actor hop (drive) that the work causes has run when advance returns")
  @MainActor
  func drivesTheMainActor() async {
    let clock = TestClock()
    let query = BehaviorRelay("swift")
    let shown = Mutex<[String]>([])
    let phase = query.flatMapLatest { text in
      try await clock.sleep(for: .milliseconds(200))
      return text.uppercased()
    }
    let token = phase.map { $0.value ?? "…" }.drive { value in shown.withLock { $0.append(value) } }
    await clock.advance(by: .milliseconds(200))
    #expect(shown.withLock { $0 } == ["…", "SWIFT"])
    query.accept("rx")
    await clock.advance(by: .milliseconds(200))
    #expect(shown.withLock { $0 } == ["…", "SWIFT", "…", "RX"])
    _ = token
  }

  @Test("A signal's emit to the main actor, from work, has run when advance returns")
  @MainActor
  func emitsOnTheMainActor() async {
    let clock = TestClock()
    let taps = PublishRelay<Int>()
    let seen = Mutex<[Int]>([])
    let later = taps.flatMap { tap in
      try? await clock.sleep(for: .seconds(tap))
      return tap
    }
    let token = later.emit { value in seen.withLock { $0.append(value) } }
    taps.accept(2)
    taps.accept(1)
    await clock.advance(by: .seconds(2))
    #expect(seen.withLock { $0 } == [1, 2])
    _ = token
  }

  @Test("Recorder records a property's value first, each change, and the end")
  func recorderRecordsValuesAndEnd() async {
    let clock = TestClock()
    var relay: BehaviorRelay<Int>? = BehaviorRelay(1)
    let recorded = Recorder(relay!.asProperty(), clock: clock)
    await clock.advance(by: .seconds(1))
    relay?.accept(2)
    #expect(recorded.records == [Recorded(.zero, 1), Recorded(.seconds(1), 2)])
    #expect(!recorded.isCompleted)
    relay = nil
    #expect(recorded.isCompleted)
    recorded.removeAll()
    #expect(recorded.values.isEmpty)
  }
}
