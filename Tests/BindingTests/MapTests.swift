import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct MapTests {
  @Test func mapDeliversTheTransformOfEveryChange() {
    let relay = BehaviorRelay(1)
    let doubled = relay.asProperty().map { $0 * 2 }
    let seen = Recorder<Int>()
    let token = doubled.subscribe(seen.sink)
    relay.accept(2)
    relay.accept(2)
    relay.accept(5)
    #expect(seen.values == [2, 4, 4, 10])
    #expect(doubled.value == 10)
    _ = token
  }

  @Test func aChainOfMapsIsComputedOncePerWrite() {
    let relay = BehaviorRelay(0)
    let calls = Recorder<Int>()
    let chain = relay.asProperty()
      .map { value -> Int in
        calls.record(value)
        return value + 1
      }
      .map(String.init)
    let seen = Recorder<String>()
    let token = chain.subscribe(seen.sink)
    relay.accept(1)
    relay.accept(2)
    #expect(seen.values == ["1", "2", "3"])
    #expect(calls.values == [0, 1, 2])
    _ = token
  }

  @Test func readingInsideABatchComputesFromTheNewestWrite() {
    let relay = BehaviorRelay(1)
    let doubled = relay.asProperty().map { $0 * 2 }
    let seen = Recorder<Int>()
    let token = doubled.subscribe(seen.sink)
    batch {
      relay.accept(3)
      #expect(doubled.value == 6)
      relay.accept(4)
    }
    #expect(seen.values == [2, 8])
    _ = token
  }
}
