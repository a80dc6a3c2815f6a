import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Synchronization
import Testing

@Suite("A subscription bag ends its subscriptions together")
struct SubscriptionBagTests {
  @Test func aBagSubscriptionStartsWithTheValueAndFollowsEveryChange() {
    let relay = BehaviorRelay(1)
    let bag = SubscriptionBag()
    let seen = Recorder<Int>()
    relay.subscribe(in: bag, seen.sink)
    relay.accept(2)
    relay.accept(3)
    #expect(seen.values == [1, 2, 3])
  }

  @Test func cancelAllEndsEverySubscriptionAndTheBagCanBeUsedAgain() {
    let count = BehaviorRelay(0)
    let taps = PublishRelay<String>()
    let bag = SubscriptionBag()
    let counts = Recorder<Int>()
    let events = Recorder<String>()
    count.subscribe(in: bag, counts.sink)
    taps.subscribe(in: bag, events.sink)
    count.accept(1)
    taps.accept("a")
    bag.cancelAll()
    count.accept(2)
    taps.accept("b")
    #expect(counts.values == [0, 1])
    #expect(events.values == ["a"])

    count.subscribe(in: bag, counts.sink)
    count.accept(3)
    #expect(counts.values == [0, 1, 2, 3])
    bag.cancelAll()
    count.accept(4)
    #expect(counts.values == [0, 1, 2, 3])
  }

  @Test func releasingTheBagEndsItsSubscriptions() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    var bag: SubscriptionBag? = SubscriptionBag()
    for _ in 0..<3 { relay.subscribe(in: bag!, seen.sink) }
    relay.accept(1)
    #expect(seen.values == [0, 0, 0, 1, 1, 1])
    bag = nil
    relay.accept(2)
    #expect(seen.values == [0, 0, 0, 1, 1, 1])
  }

  /// Enough subscriptions to fill several of the bag's blocks (4, 8, 16, ... slots, chained):
  /// `cancelAll()` ends every one, the newest first (each sink's captured object is released as
  /// its subscription ends), and the bag takes new ones afterwards.
  @Test func cancelAllEndsSubscriptionsAcrossBlocksNewestFirst() {
    final class Witness: Sendable {
      let index: Int
      let released: Locked<[Int]>
      init(_ index: Int, _ released: Locked<[Int]>) {
        self.index = index
        self.released = released
      }
      deinit { released.withLock { $0.append(index) } }
    }
    let relay = BehaviorRelay(0)
    let bag = SubscriptionBag()
    let released = Locked<[Int]>([])
    let calls = Locked(0)
    let count = 300
    for index in 0..<count {
      let witness = Witness(index, released)
      relay.subscribe(in: bag) { _ in
        _ = witness
        calls.withLock { $0 += 1 }
      }
    }
    relay.accept(1)
    #expect(calls.withLock { $0 } == 2 * count)
    bag.cancelAll()
    #expect(released.withLock { $0 } == Array((0..<count).reversed()))
    relay.accept(2)
    #expect(calls.withLock { $0 } == 2 * count)
    relay.subscribe(in: bag) { _ in calls.withLock { $0 += 1 } }
    relay.accept(3)
    #expect(calls.withLock { $0 } == 2 * count + 2)
  }

  @Test func subscriptionsToOneRelayEndTogetherBesideTokens() {
    // Two subscriptions of the bag to the same relay, between a token's: ending the bag's
    // leaves the token's, in its place.
    let relay = BehaviorRelay(0)
    let bag = SubscriptionBag()
    let order = Recorder<String>()
    relay.subscribe(in: bag) { order.record("bag1 \($0)") }
    let token = relay.subscribe { order.record("token \($0)") }
    relay.subscribe(in: bag) { order.record("bag2 \($0)") }
    order.removeAll()
    relay.accept(1)
    #expect(order.values == ["bag1 1", "token 1", "bag2 1"])
    bag.cancelAll()
    relay.accept(2)
    #expect(order.values == ["bag1 1", "token 1", "bag2 1", "token 2"])
    token.cancel()
  }

  @Test func aStoredTokenIsCancelledWithTheBagEvenWhileHeldElsewhere() {
    let relay = BehaviorRelay(0)
    let bag = SubscriptionBag()
    let seen = Recorder<Int>()
    let token = relay.subscribe(seen.sink)
    token.store(in: bag)
    relay.accept(1)
    bag.cancelAll()
    relay.accept(2)
    #expect(seen.values == [0, 1])
  }

  @Test func aSignalSubscriptionGetsItsPrefixThenLaterEvents() {
    let taps = PublishRelay<Int>()
    let bag = SubscriptionBag()
    let seen = Recorder<Int>()
    taps.startWith(0).subscribe(in: bag, seen.sink)
    taps.accept(1)
    bag.cancelAll()
    taps.accept(2)
    #expect(seen.values == [0, 1])
  }

  @Test func aChangeStreamInABagSkipsTheCurrentValue() {
    let relay = BehaviorRelay(5)
    let bag = SubscriptionBag()
    let seen = Recorder<Int>()
    relay.changes.subscribe(in: bag, seen.sink)
    relay.accept(6)
    #expect(seen.values == [6])
    bag.cancelAll()
  }

  @Test func cancelAllFromASinkStopsTheBagsLaterSinksInTheSameDelivery() {
    let relay = BehaviorRelay(0)
    let bag = SubscriptionBag()
    let order = Recorder<String>()
    relay.subscribe(in: bag) { value in
      order.record("first \(value)")
      if value == 1 { bag.cancelAll() }
    }
    relay.subscribe(in: bag) { order.record("second \($0)") }
    relay.accept(1)
    relay.accept(2)
    #expect(order.values == ["first 0", "second 0", "first 1"])
  }

  @Test func aDerivedPropertyInABagStopsComputingOnceTheBagEnds() {
    let relay = BehaviorRelay(1)
    let transforms = Counter()
    let bag = SubscriptionBag()
    let seen = Recorder<Int>()
    do {
      let doubled = relay.map { value in
        transforms.bump()
        return value * 2
      }
      doubled.subscribe(in: bag, seen.sink)
    }
    relay.accept(2)
    #expect(seen.values == [2, 4])
    let before = transforms.value
    bag.cancelAll()
    relay.accept(3)
    relay.accept(4)
    // The map's only observer was the bag: it left the graph and computes no more.
    #expect(transforms.value == before)
    #expect(seen.values == [2, 4])
  }

  @Test func aComputedPropertyInABagIsResumedAndSuspendedAgain() {
    let a = BehaviorRelay(1)
    let runs = Counter()
    let doubled = Property<Int> {
      runs.bump()
      return a.value * 2
    }
    let bag = SubscriptionBag()
    let seen = Recorder<Int>()
    a.accept(2)
    doubled.subscribe(in: bag, seen.sink)
    a.accept(3)
    #expect(seen.values == [4, 6])
    bag.cancelAll()
    let before = runs.value
    for value in 4...6 { a.accept(value) }
    #expect(runs.value == before)
  }

  @Test func subscribingAndCancellingOnManyThreadsLeavesNothingBehind() async {
    // Threads subscribe a computed property (suspended while unobserved, so every first
    // subscriber resumes it with the lock let go) and a relay into one bag while another
    // thread empties the bag over and over. Once everything is cancelled, no sink is called
    // and the computed property is suspended again: nothing was registered after its bag
    // generation ended.
    let a = BehaviorRelay(0)
    let runs = Counter()
    let computed = Property<Int> {
      runs.bump()
      return a.value + 1
    }
    let bag = SubscriptionBag()
    let calls = Counter()
    let done = Counter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<3 {
        group.addTask {
          for step in 0..<2000 {
            computed.subscribe(in: bag) { _ in calls.bump() }
            a.subscribe(in: bag) { _ in calls.bump() }
            if step % 100 == 0 { a.accept(step) }
          }
          done.bump()
        }
      }
      group.addTask {
        while done.value < 3 { bag.cancelAll() }
      }
    }
    bag.cancelAll()
    let callsBefore = calls.value
    let runsBefore = runs.value
    a.accept(-1)
    a.accept(-2)
    #expect(calls.value == callsBefore)
    #expect(runs.value == runsBefore)
  }
}
