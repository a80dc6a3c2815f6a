import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct ChangesTests {
  @Test func subscribeSkipsTheCurrentValue() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let token = relay.asProperty().changes.subscribe(seen.sink)
    #expect(seen.values == [])
    relay.accept(1)
    relay.accept(2)
    #expect(seen.values == [1, 2])
    _ = token
  }

  @Test func iteratingYieldsLaterChangesAndFinishes() async {
    var relay: BehaviorRelay<Int>? = BehaviorRelay(0)
    var iterator = relay!.asProperty().changes.values.makeAsyncIterator()
    relay!.accept(1)
    relay!.accept(2)
    relay = nil
    var seen: [Int] = []
    while let value = await iterator.next() { seen.append(value) }
    #expect(seen == [1, 2])
  }
}

@Suite struct ValuesTests {
  @Test func yieldsTheCurrentValueThenChangesAndFinishes() async {
    var relay: BehaviorRelay<Int>? = BehaviorRelay(0)
    let property = relay!.asProperty().map { $0 * 10 }
    var iterator = property.values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    relay!.accept(1)
    #expect(await iterator.next() == 10)
    relay!.accept(2)
    relay!.accept(3)
    relay = nil
    #expect(await iterator.next() == 20)
    #expect(await iterator.next() == 30)
    #expect(await iterator.next() == nil)
  }

  @Test func aForAwaitLoopEndsWhenTheRelayIsReleased() async {
    var relay: BehaviorRelay<String>? = BehaviorRelay("a")
    let values = relay!.asProperty().values
    let consumer = Task {
      var seen: [String] = []
      for await value in values { seen.append(value) }
      return seen
    }
    let started = WaitingRecorder<Int>()
    let token = relay!.subscribe { _ in started.record(0) }
    relay!.accept("b")
    _ = token
    relay = nil
    let seen = await consumer.value
    #expect(seen.first == "a" || seen.first == "b")
    #expect(seen.last == "b")
  }

  @Test func leavingTheLoopEndsTheSubscription() async {
    let relay = BehaviorRelay(0)
    let property = relay.asProperty().map { $0 + 1 }
    do {
      var iterator = property.values.makeAsyncIterator()
      #expect(await iterator.next() == 1)
    }
    let tracker = LifetimeTracker()
    do {
      let mapped = relay.asProperty().map { $0 }
      tracker.track(mapped, "mapped")
      var iterator = mapped.values.makeAsyncIterator()
      #expect(await iterator.next() == 0)
    }
    #expect(tracker.alive == [])
  }
}
