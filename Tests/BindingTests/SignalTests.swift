import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite("Signal: events, never coalesced")
struct SignalTests {
  @Test("map, filter and compactMap transform each event")
  func transformingOperators() {
    let taps = PublishRelay<Int>()
    let doubled = Recorder<Int>()
    let even = Recorder<Int>()
    let parsed = Recorder<Int>()
    let tokens = [
      taps.map { $0 * 2 }.subscribe(doubled.sink),
      taps.filter { $0 % 2 == 0 }.subscribe(even.sink),
      taps.map { "\($0)" }.compactMap { $0 == "3" ? nil : Int($0) }.subscribe(parsed.sink),
    ]
    for tap in 1...4 { taps.accept(tap) }
    #expect(doubled.values == [2, 4, 6, 8])
    #expect(even.values == [2, 4])
    #expect(parsed.values == [1, 2, 4])
    _ = tokens
  }

  @Test("Inside a batch every event is delivered, in order, at its end, after the state")
  func batchDeliversEveryEventAfterTheState() {
    let state = BehaviorRelay(0)
    let taps = PublishRelay<String>()
    let log = Recorder<String>()
    let stateToken = state.subscribe { log.record("state \($0)") }
    let tapToken = taps.map { "tap \($0)" }.subscribe(log.sink)
    batch {
      state.accept(1)
      taps.accept("a")
      state.accept(2)
      taps.accept("b")
      taps.accept("b")
      #expect(log.values == ["state 0"])
    }
    #expect(log.values == ["state 0", "state 2", "tap a", "tap b", "tap b"])
    _ = (stateToken, tapToken)
  }

  @Test("merge delivers the events of every input, in the order they happen")
  func eventsOfEveryInput() {
    let a = PublishRelay<Int>()
    let b = PublishRelay<Int>()
    let c = PublishRelay<Int>()
    let seen = Recorder<Int>()
    let pair = Recorder<Int>()
    let merged = a.merged(with: b, c)
    let tokens = [
      merged.subscribe(seen.sink), Signal<Int>.merge([a, b]).subscribe(pair.sink),
    ]
    a.accept(1)
    c.accept(3)
    b.accept(2)
    batch {
      c.accept(30)
      a.accept(10)
    }
    #expect(seen.values == [1, 3, 2, 30, 10])
    #expect(pair.values == [1, 2, 10])
    _ = tokens
  }

  @Test("withLatestFrom samples the state as of each event; a state change alone is silent")
  func withLatestFromSamplesState() {
    let form = BehaviorRelay("")
    let submit = PublishRelay<Void>()
    let sent = Recorder<String>()
    let counted = Recorder<String>()
    let tokens = [
      submit.withLatestFrom(form.asProperty()).subscribe(sent.sink),
      submit.map { 1 }.withLatestFrom(form.asProperty()) { "\($1)#\($0)" }.subscribe(
        counted.sink),
    ]
    form.accept("ann")
    #expect(sent.values == [])
    submit.accept(())
    batch {
      submit.accept(())  // delivered at the batch's end: with the batch's final state
      form.accept("bob")
    }
    #expect(sent.values == ["ann", "bob"])
    #expect(counted.values == ["ann#1", "bob#1"])
    _ = tokens
  }

  @Test("scan counts every event, several in one batch too")
  func scanAccumulatesEveryEvent() {
    let taps = PublishRelay<Int>()
    let total = taps.scan(into: 0) { $0 += $1 }
    let seen = Recorder<Int>()
    let token = total.subscribe(seen.sink)
    taps.accept(1)
    batch {
      taps.accept(10)
      taps.accept(100)
    }
    #expect(total.value == 111)
    #expect(seen.values.first == 0 && seen.values.last == 111)
    _ = token
  }

  @Test("startWith gives each new subscriber its events first; operators carry them")
  func startWithPrefixesEachSubscription() {
    let taps = PublishRelay<Int>()
    let started = taps.startWith(1, 2)
    let first = Recorder<Int>()
    let mapped = Recorder<Int>()
    let firstToken = started.subscribe(first.sink)
    taps.accept(3)
    let mappedToken = started.map { $0 * 10 }.subscribe(mapped.sink)
    taps.accept(4)
    #expect(first.values == [1, 2, 3, 4])
    #expect(mapped.values == [10, 20, 40])
    #expect(started.scan(into: 0) { $0 += $1 }.value == 3)
    _ = (firstToken, mappedToken)
  }

  @Test("No event outlives its delivery, through operators too")
  func eventsAreNotRetained() {
    final class Payload: Sendable {}
    let tracker = LifetimeTracker()
    let relay = PublishRelay<Payload>()
    let mapped = relay.map { $0 }
    let seen = Recorder<Int>()
    let token = mapped.subscribe { _ in seen.record(1) }
    do {
      let payload = Payload()
      tracker.track(payload, "event")
      relay.accept(payload)
      batch { relay.accept(payload) }
    }
    #expect(seen.values == [1, 1])
    #expect(tracker.alive == [])
    _ = token
  }

  @Test("changes subscribers run in subscription order with the property's other sinks")
  func changesAreSinksOfTheProperty() {
    let count = BehaviorRelay(0)
    let log = Recorder<String>()
    let tokens = [
      count.asProperty().changes.subscribe { log.record("changes \($0)") },
      count.subscribe { log.record("subscribe \($0)") },
      count.asProperty().changes.map { $0 * 10 }.subscribe { log.record("mapped \($0)") },
    ]
    count.accept(1)
    #expect(log.values == ["subscribe 0", "changes 1", "subscribe 1", "mapped 10"])
    _ = tokens
  }

  @Test("A time operator's signal, dropped at once, keeps working for its subscriber")
  func timeOperatorLivesWithItsSubscription() async {
    let clock = ManualClock()
    let taps = PublishRelay<Int>()
    let seen = WaitingRecorder<Int>()
    let token = taps.debounce(for: .seconds(1), clock: clock).subscribe(seen.sink)
    taps.accept(1)
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(1))
    await seen.waitForCount(1)
    #expect(seen.values == [1])
    _ = token
  }

  @Test("A derived signal that nobody holds is freed")
  func releasedSignalsAreFreed() {
    let tracker = LifetimeTracker()
    let relay = PublishRelay<Int>()
    do {
      let mapped = relay.map { $0 + 1 }
      tracker.track(mapped, "mapped signal")
      relay.accept(1)
    }
    relay.accept(2)
    #expect(tracker.alive == [])
  }

  @Test("A signal ends when its relay is released; values finishes")
  func valuesFinishWhenTheRelayGoes() async {
    var relay: PublishRelay<Int>? = PublishRelay()
    var iterator = relay!.map { $0 }.values.makeAsyncIterator()
    let completed = Recorder<Bool>()
    let token = relay!.subscribe { _ in
    } onCompleted: {
      completed.record(true)
    }
    relay!.accept(1)
    relay!.accept(2)
    relay = nil
    var seen: [Int] = []
    while let value = await iterator.next() { seen.append(value) }
    #expect(seen == [1, 2])
    #expect(completed.values == [true])
    _ = token
  }
}

@Suite("Signal time operators, on a manual clock")
struct SignalTimeTests {
  @Test("debounce delivers the last event of a burst once the clock passes the due time")
  func debounceDeliversTheLastOfABurst() async {
    let clock = ManualClock()
    let edits = PublishRelay<String>()
    let quiet = edits.debounce(for: .seconds(1), clock: clock)
    let seen = WaitingRecorder<String>()
    let token = quiet.subscribe(seen.sink)
    edits.accept("a")
    edits.accept("ab")
    await clock.waitForSleepers(1)
    clock.advance(by: .milliseconds(999))
    #expect(seen.values == [])
    clock.advance(by: .milliseconds(1))
    await seen.waitForCount(1)
    edits.accept("abc")
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(5))
    await seen.waitForCount(2)
    #expect(seen.values == ["ab", "abc"])
    _ = token
  }

  @Test("throttle delivers the first event at once and the last of the interval at its end")
  func throttleDeliversFirstAndLatest() async {
    let clock = ManualClock()
    let taps = PublishRelay<Int>()
    let latest = WaitingRecorder<Int>()
    let leading = WaitingRecorder<Int>()
    let tokens = [
      taps.throttle(for: .seconds(1), clock: clock).subscribe(latest.sink),
      taps.throttle(for: .seconds(1), clock: clock, latest: false).subscribe(leading.sink),
    ]
    taps.accept(1)
    taps.accept(2)
    taps.accept(3)
    #expect(latest.values == [1])
    #expect(leading.values == [1])
    await clock.waitForSleepers(2)
    clock.advance(by: .seconds(1))
    await latest.waitForCount(2)
    #expect(latest.values == [1, 3])
    #expect(leading.values == [1])
    // The window stays open one more interval after delivering 3: an event now is held.
    taps.accept(4)
    #expect(latest.values == [1, 3])
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(1))
    await latest.waitForCount(3)
    #expect(latest.values == [1, 3, 4])
    _ = tokens
  }
}
