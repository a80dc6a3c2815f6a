import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct FilterTests {
  @Test func startsFromInitialWhenTheCurrentValueIsExcluded() {
    let relay = BehaviorRelay(1)
    let even = relay.asProperty().filter(initial: 0) { $0.isMultiple(of: 2) }
    let seen = Recorder<Int>()
    let token = even.subscribe(seen.sink)
    for value in [2, 3, 4, 5] { relay.accept(value) }
    #expect(seen.values == [0, 2, 4])
    #expect(even.value == 4)
    _ = token
  }

  @Test func startsFromTheCurrentValueWhenItIsIncluded() {
    let relay = BehaviorRelay(8)
    let even = relay.asProperty().filter(initial: 0) { $0.isMultiple(of: 2) }
    let seen = Recorder<Int>()
    let token = even.subscribe(seen.sink)
    relay.accept(7)
    relay.accept(6)
    #expect(seen.values == [8, 6])
    _ = token
  }
}
