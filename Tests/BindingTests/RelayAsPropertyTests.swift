import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

/// A `BehaviorRelay` is a `Property`: every operator takes it as it is, with no `asProperty()`.
@Suite struct RelayAsPropertyTests {
  @Test func operatorsTakeARelay() {
    let price = BehaviorRelay(3)
    let quantity = BehaviorRelay(2)
    let total = Property.combineLatest(price, quantity).map { $0 * $1 }
    let label = price.map { "\($0) €" }
    #expect(total.value == 6)
    #expect(label.value == "3 €")
    quantity.accept(5)
    #expect(total.value == 15)
  }

  @Test func combineLatestOfManyRelays() {
    let relays = (0..<4).map { BehaviorRelay($0) }
    let all = Property.combineLatest(relays[0], relays[1], relays[2], relays[3])
    relays[3].accept(30)
    #expect(all.value == (0, 1, 2, 30))
  }

  @Test func aRelayBindsToAnotherRelay() {
    let source = BehaviorRelay(1)
    let target = BehaviorRelay(0)
    let token = source.bind(to: target)
    source.accept(2)
    #expect(target.value == 2)
    _ = token
  }

  @Test func aRelaysValuesAreAnAsyncSequence() async {
    let relay = BehaviorRelay(7)
    var iterator = relay.values.makeAsyncIterator()
    #expect(await iterator.next() == 7)
    relay.accept(8)
    #expect(await iterator.next() == 8)
  }

  @Test func aRelayIsPassedWhereAPropertyIsExpected() {
    func describe(_ property: Property<Int>) -> String { "\(property.value)" }
    let relay = BehaviorRelay(4)
    #expect(describe(relay) == "4")
  }

  @Test func asPropertyCannotBeCastBackToTheRelay() {
    let relay = BehaviorRelay(0)
    let readOnly: Property<Int> = relay.asProperty()
    #expect(!(readOnly is BehaviorRelay<Int>))
    #expect(!(Property(relay) is BehaviorRelay<Int>))
    relay.accept(1)
    #expect(readOnly.value == 1)
  }

  @Test func releasingTheRelayCompletesWhatFollowsIt() {
    var relay: BehaviorRelay<Int>? = BehaviorRelay(0)
    let doubled = relay!.map { $0 * 2 }
    let completed = Recorder<Void>()
    let token = doubled.subscribe({ _ in }, onCompleted: { completed.record(()) })
    relay!.accept(2)
    relay = nil
    #expect(completed.count == 1)
    #expect(doubled.value == 4)
    _ = token
  }
}
