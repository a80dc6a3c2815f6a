import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

/// `startWith` events end with the subscription: a sink that ends it stops receiving them.
@Suite("Signal.startWith and the end of a subscription")
struct SignalStartWithTests {
  @Test("A sink that empties its bag at the first start event gets no other")
  func prefixStopsWhenTheBagIsEmptied() {
    let relay = PublishRelay<Int>()
    let bag = SubscriptionBag()
    let seen = Recorder<Int>()
    relay.asSignal().startWith(1, 2, 3).subscribe(in: bag) { value in
      seen.record(value)
      if value == 1 { bag.cancelAll() }
    }
    relay.accept(4)
    #expect(seen.values == [1])
  }

  @Test("Start events carried through map stop too")
  func mappedPrefixStops() {
    let relay = PublishRelay<Int>()
    let bag = SubscriptionBag()
    let seen = Recorder<Int>()
    relay.asSignal().startWith(1, 2, 3).map { $0 * 10 }.subscribe(in: bag) { value in
      seen.record(value)
      if value == 20 { bag.cancelAll() }
    }
    relay.accept(4)
    #expect(seen.values == [10, 20])
  }
}
