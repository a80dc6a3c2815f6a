import InvalidatingBinding
import InvalidatingCore
import InvalidatingTesting
import Synchronization
import Testing

/// What a port from RxSwift reaches for on events and state: merge of events that fire
/// together, start events through a throttle, bindings, holding a signal, a property's value
/// then its changes, a combined property with a selector, time operators on properties.
@Suite("Event operators a port needs")
struct EventParityTests {
  @Test("merge delivers both events of one tap, in argument order")
  func mergeDeliversEventsThatFireTogether() {
    let tap = PublishRelay<Void>()
    let merged = Recorder(Signal.merge(tap.map { 1 }, tap.map { 2 }))
    tap.accept(())
    #expect(merged.values == [1, 2])
    tap.accept(())
    #expect(merged.values == [1, 2, 1, 2])
  }

  @Test("Events that fire together in several deliveries of one batch keep their order")
  func mergeKeepsOrderAcrossABatch() {
    let tap = PublishRelay<Int>()
    let merged = Signal.merge(tap.map { "a\($0)" }, tap.map { "b\($0)" }, tap.map { "c\($0)" })
    let recorded = Recorder(merged)
    let counted = Recorder(merged.scan(into: 0) { count, _ in count += 1 })
    batch {
      tap.accept(1)
      tap.accept(2)
    }
    #expect(recorded.values == ["a1", "b1", "c1", "a2", "b2", "c2"])
    #expect(counted.values.last == 6)
  }

  @Test("A sink's write during a merged delivery comes after the events that fired together")
  func mergeDeliversItsEventsBeforeASinksWrite() {
    let tap = PublishRelay<Int>()
    let log = Mutex<[String]>([])
    let merged = Signal.merge(tap.map { "first \($0)" }, tap.map { "second \($0)" })
    let token = merged.subscribe { event in
      log.withLock { $0.append(event) }
      if event == "first 1" { tap.accept(2) }
    }
    tap.accept(1)
    #expect(log.withLock { $0 } == ["first 1", "second 1", "first 2", "second 2"])
    _ = token
  }

  @Test("Merges of merges deliver every event once, in input order")
  func nestedMerges() {
    let tap = PublishRelay<Int>()
    let inner = Signal.merge(tap.map { "x\($0)" }, tap.map { "y\($0)" })
    let outer = Recorder(Signal.merge(inner, tap.map { "z\($0)" }))
    tap.accept(1)
    #expect(outer.values == ["x1", "z1", "y1"])
  }

  @Test("Signal.merge infers its element type; merged(with:) merges with others")
  func mergeInfersItsType() {
    let a = PublishRelay<Int>()
    let b = PublishRelay<Int>()
    let merged = Recorder(Signal.merge(a, b))
    let withOthers = Recorder(a.merged(with: b))
    a.accept(1)
    b.accept(2)
    #expect(merged.values == [1, 2])
    #expect(withOthers.values == [1, 2])
  }

  @Test("startWith before throttle: the start event is delivered at once and opens no window")
  func startWithBeforeThrottle() async {
    let clock = TestClock()
    let relay = PublishRelay<String>()
    let throttled = relay.startWith("first").throttle(for: .milliseconds(200), clock: clock)
    let recorded = Recorder(throttled, clock: clock)
    #expect(recorded.values == ["first"])
    relay.accept("second")  // no window is open: delivered at once
    await clock.advance(by: .milliseconds(300))
    #expect(recorded.records == [Recorded(.zero, "first"), Recorded(.zero, "second")])
  }

  @Test("startWith before debounce: the start event is delivered once the due time passes")
  func startWithBeforeDebounce() async {
    let clock = TestClock()
    let relay = PublishRelay<String>()
    let debounced = relay.startWith("first").debounce(for: .milliseconds(200), clock: clock)
    let recorded = Recorder(debounced, clock: clock)
    await clock.advance(by: .milliseconds(300))
    #expect(recorded.records == [Recorded(.milliseconds(200), "first")])
  }

  @Test("bind(to:) from a signal feeds a relay, holding it weakly")
  func bindSignalToRelays() {
    let taps = PublishRelay<Int>()
    let forwarded = PublishRelay<Int>()
    var selected: BehaviorRelay<Int>? = BehaviorRelay(0)
    let seen = Recorder(forwarded)
    let tokens = [taps.bind(to: forwarded), taps.map { $0 * 10 }.bind(to: selected!)]
    taps.accept(1)
    taps.accept(2)
    #expect(seen.values == [1, 2])
    #expect(selected?.value == 20)
    weak let released = selected
    selected = nil
    taps.accept(3)
    #expect(released == nil)
    #expect(seen.values == [1, 2, 3])
    _ = tokens
  }

  @Test("Property(initial:then:) holds the latest event, observed or not")
  func holdsASignal() {
    let messages = PublishRelay<String>()
    let last = Property(initial: "none", then: messages.map { $0.uppercased() })
    #expect(last.value == "none")
    messages.accept("hi")
    #expect(last.value == "HI")
    let started = Property(initial: "none", then: messages.startWith("hello"))
    #expect(started.value == "hello")
  }

  @Test("valueAndChanges gives each subscriber the value of its moment, then the changes")
  func valueAndChanges() {
    let query = BehaviorRelay("a")
    let events = query.valueAndChanges
    let first = Recorder(events)
    query.accept("b")
    let second = Recorder(events.map { $0.uppercased() }.filter { $0 != "C" })
    query.accept("c")
    query.accept("d")
    #expect(first.values == ["a", "b", "c", "d"])
    #expect(second.values == ["B", "D"])
    let scanned = events.scan(into: "") { $0 += $1 }
    query.accept("e")
    #expect(scanned.value == "de")
  }

  @Test("combineLatest with a result selector: one value per change, never a torn one")
  func combineLatestWithASelector() {
    let source = BehaviorRelay(1)
    let doubled = source.map { $0 * 2 }
    let name = BehaviorRelay("x")
    let summary = Property.combineLatest(source, doubled, name) { a, b, n in "\(n)\(a + b)" }
    let recorded = Recorder(summary)
    source.accept(2)
    name.accept("y")
    #expect(recorded.values == ["x3", "x6", "y6"])
  }

  @Test("Property debounce takes the value once it stays put; the first value at once")
  func propertyDebounce() async {
    let clock = TestClock()
    let query = BehaviorRelay("")
    let settled = query.debounce(for: .milliseconds(300), clock: clock)
    let recorded = Recorder(settled, clock: clock)
    query.accept("s")
    await clock.advance(by: .milliseconds(100))
    query.accept("sw")
    await clock.advance(by: .seconds(1))
    #expect(recorded.records == [Recorded(.zero, ""), Recorded(.milliseconds(400), "sw")])
  }

  @Test("Property throttle takes the first change at once and the last of the interval")
  func propertyThrottle() async {
    let clock = TestClock()
    let progress = BehaviorRelay(0)
    let shown = progress.throttle(for: .milliseconds(100), clock: clock)
    let recorded = Recorder(shown, clock: clock)
    progress.accept(1)
    progress.accept(2)
    progress.accept(3)
    await clock.advance(by: .milliseconds(500))
    #expect(
      recorded.records == [
        Recorded(.zero, 0), Recorded(.zero, 1), Recorded(.milliseconds(100), 3),
      ])
  }
}
