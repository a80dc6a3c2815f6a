import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct PublishRelayTests {
  @Test func subscribersSeeOnlyLaterAccepts() {
    let taps = PublishRelay<Int>()
    taps.accept(1)
    let seen = Recorder<Int>()
    let token = taps.subscribe(seen.sink)
    #expect(seen.values == [])
    taps.accept(5)
    taps.accept(5)
    taps.accept(6)
    #expect(seen.values == [5, 5, 6])
    let late = Recorder<Int>()
    let lateToken = taps.subscribe(late.sink)
    #expect(late.values == [])
    taps.accept(7)
    #expect(seen.values == [5, 5, 6, 7])
    #expect(late.values == [7])
    _ = (token, lateToken)
  }

  @Test func optionalEventsAreDelivered() {
    let relay = PublishRelay<Int?>()
    let seen = Recorder<Int?>()
    let token = relay.subscribe(seen.sink)
    relay.accept(nil)
    relay.accept(1)
    #expect(seen.values == [nil, 1])
    _ = token
  }

  @Test func aBatchDeliversEveryEventInOrderAtItsEnd() {
    let relay = PublishRelay<String>()
    let seen = Recorder<String>()
    let token = relay.subscribe(seen.sink)
    batch {
      relay.accept("a")
      relay.accept("b")
      #expect(seen.values == [])
    }
    #expect(seen.values == ["a", "b"])
    _ = token
  }

  @Test func cancelStopsDelivery() {
    let relay = PublishRelay<Int>()
    let seen = Recorder<Int>()
    let token = relay.subscribe(seen.sink)
    relay.accept(1)
    token.cancel()
    relay.accept(2)
    #expect(seen.values == [1])
  }
}
