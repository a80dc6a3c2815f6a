import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct BehaviorRelayTests {
  @Test func subscribeRunsAtOnceThenOnEveryAccept() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let token = relay.subscribe(seen.sink)
    #expect(seen.values == [0])
    relay.accept(1)
    relay.accept(1)
    relay.accept(2)
    #expect(seen.values == [0, 1, 1, 2])
    #expect(relay.value == 2)
    token.cancel()
    relay.accept(3)
    #expect(seen.values == [0, 1, 1, 2])
  }

  @Test func rxSpellingOfTheInitializer() {
    let relay = BehaviorRelay(value: "a")
    #expect(relay.value == "a")
  }

  @Test func releasingTheTokenEndsTheSubscription() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    do {
      let token = relay.subscribe(seen.sink)
      _ = token
    }
    relay.accept(1)
    #expect(seen.values == [0])
  }

  @Test func subscribersRunInSubscriptionOrder() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<String>()
    let first = relay.subscribe { seen.record("first \($0)") }
    let second = relay.subscribe { seen.record("second \($0)") }
    relay.accept(1)
    #expect(seen.values == ["first 0", "second 0", "first 1", "second 1"])
    _ = (first, second)
  }

  @Test func batchDeliversOnceWithTheLatestValue() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let token = relay.subscribe(seen.sink)
    let answer: Int = batch {
      relay.accept(2)
      relay.accept(3)
      #expect(relay.value == 3)
      #expect(seen.values == [0])
      return 42
    }
    #expect(answer == 42)
    #expect(seen.values == [0, 3])
    _ = token
  }

  @Test func aSinkThatWritesBackIsQueuedNotNested() {
    let relay = BehaviorRelay(0)
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let writer = relay.subscribe { value in
      first.record(value)
      if value == 1 { relay.accept(2) }
    }
    let later = relay.subscribe(second.sink)
    relay.accept(1)
    #expect(first.values == [0, 1, 2])
    #expect(second.values == [0, 1, 2])
    #expect(relay.value == 2)
    _ = (writer, later)
  }

  @Test func releasingTheRelayCompletesItsProperty() {
    var relay: BehaviorRelay<Int>? = BehaviorRelay(0)
    let property = relay!.asProperty()
    relay!.accept(5)
    relay = nil
    #expect(property.value == 5)
  }

  @Test func concurrentAcceptsEndOnTheFinalValue() async {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let token = relay.subscribe(seen.sink)
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          for step in 1...250 { relay.accept(writer * 1000 + step) }
        }
      }
    }
    relay.accept(-1)
    #expect(seen.values.count == 1002)
    #expect(seen.values.last == -1)
    _ = token
  }
}
