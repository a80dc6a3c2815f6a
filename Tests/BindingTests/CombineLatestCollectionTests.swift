import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct CombineLatestCollectionTests {
  @Test func theArrayFollowsEveryInputInOrder() {
    let relays = [BehaviorRelay(1), BehaviorRelay(2), BehaviorRelay(3)]
    let all: Property<[Int]> = Property.combineLatest(relays)
    let seen = Recorder<[Int]>()
    let token = all.subscribe(seen.sink)
    relays[2].accept(30)
    relays[0].accept(10)
    #expect(seen.values == [[1, 2, 3], [1, 2, 30], [10, 2, 30]])
    #expect(all.value == [10, 2, 30])
    _ = token
  }

  @Test func anyCollectionOfPropertiesWorks() {
    let relays = (0..<5).map { BehaviorRelay($0) }
    let evens = Property.combineLatest(relays.lazy.filter { $0.value.isMultiple(of: 2) })
    let slice = Property.combineLatest(relays[1...2].map { $0.asProperty() })
    relays[4].accept(40)
    relays[2].accept(20)
    #expect(evens.value == [0, 20, 40])
    #expect(slice.value == [1, 20])
  }

  @Test func aDiamondRunsItsSinkOncePerWriteWithAConsistentArray() {
    let a = BehaviorRelay(1)
    let branches = [a.map { $0 * 10 }, a.map { $0 * 100 }, a.asProperty(), a.map { -$0 }]
    let all = Property.combineLatest(branches)
    let seen = Recorder<[Int]>()
    let token = all.subscribe(seen.sink)
    a.accept(2)
    a.accept(3)
    #expect(seen.values == [[10, 100, 1, -1], [20, 200, 2, -2], [30, 300, 3, -3]])
    _ = token
  }

  @Test func oneBatchOverManyInputsDeliversOneArrayWithEveryNewValue() {
    let relays = (0..<100).map { BehaviorRelay($0) }
    let all = Property.combineLatest(relays)
    let seen = Recorder<[Int]>()
    let token = all.changes.subscribe(seen.sink)
    batch {
      for (index, relay) in relays.enumerated() {
        relay.accept(-1)
        relay.accept(index * 2)
      }
      // Read inside the batch: computed from the newest writes, before any delivery.
      #expect(all.value == (0..<100).map { $0 * 2 })
    }
    #expect(seen.values == [(0..<100).map { $0 * 2 }])
    _ = token
  }

  @Test func theSameInputTwiceGivesEqualElements() {
    let a = BehaviorRelay("x")
    let twice = Property.combineLatest([a, a])
    let seen = Recorder<[String]>()
    let token = twice.subscribe(seen.sink)
    a.accept("y")
    #expect(seen.values == [["x", "x"], ["y", "y"]])
    _ = token
  }

  @Test func noInputsIsAConstantEmptyArrayThatCompletesAtOnce() {
    let none = Property.combineLatest([Property<Int>]())
    let seen = Recorder<String>()
    let token = none.subscribe {
      seen.record("\($0)")
    } onCompleted: {
      seen.record("completed")
    }
    #expect(none.value == [])
    #expect(seen.values == ["[]", "completed"])
    _ = token
  }

  @Test func itKeepsNoRelayAliveAndCompletesWhenTheLastOneGoes() {
    let tracker = LifetimeTracker()
    var first: BehaviorRelay<Int>? = BehaviorRelay(1)
    var second: BehaviorRelay<Int>? = BehaviorRelay(2)
    tracker.track(first!, "first")
    tracker.track(second!, "second")
    let both = Property.combineLatest([first!, second!])
    let seen = Recorder<String>()
    let token = both.subscribe {
      seen.record("\($0)")
    } onCompleted: {
      seen.record("completed")
    }
    first!.accept(10)
    first = nil
    #expect(tracker.alive == ["second"])
    #expect(seen.values == ["[1, 2]", "[10, 2]"])
    second = nil
    #expect(tracker.alive == [])
    #expect(seen.values == ["[1, 2]", "[10, 2]", "completed"])
    #expect(both.value == [10, 2])
    _ = token
  }

  final class Marker: Sendable {}

  @Test func releasingTheCombinedPropertyLetsItsInputsAndValuesGo() {
    let tracker = LifetimeTracker()
    var relays: [BehaviorRelay<Marker>]? = (0..<3).map { _ in BehaviorRelay(Marker()) }
    for (index, relay) in relays!.enumerated() {
      tracker.track(relay, "relay \(index)")
      tracker.track(relay.value, "value \(index)")
    }
    var all: Property<[Marker]>? = Property.combineLatest(relays!)
    let sizes = Recorder<Int>()
    var token: SubscriptionToken? = all!.subscribe { sizes.record($0.count) }
    // The relays go; the combined property keeps their last values, not the relays.
    relays = nil
    #expect(tracker.alive == ["value 0", "value 1", "value 2"])
    #expect(all!.value.count == 3)
    // The combined property and its subscription go: so does everything it held.
    token = nil
    all = nil
    #expect(tracker.alive == [])
    #expect(sizes.values == [3])
    _ = token
  }
}
