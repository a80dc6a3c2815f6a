import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct RemoveDuplicatesTests {
  @Test func equalValuesAreSkipped() {
    let relay = BehaviorRelay(0)
    let distinct = relay.asProperty().removeDuplicates()
    let seen = Recorder<Int>()
    let token = distinct.subscribe(seen.sink)
    for value in [0, 1, 1, 2, 2, 2, 1] { relay.accept(value) }
    #expect(seen.values == [0, 1, 2, 1])
    _ = token
  }

  @Test func aPredicateDecidesWhatIsADuplicate() {
    let relay = BehaviorRelay("a")
    let distinct = relay.asProperty().removeDuplicates { $0.lowercased() == $1.lowercased() }
    let seen = Recorder<String>()
    let token = distinct.subscribe(seen.sink)
    for value in ["A", "b", "B", "a"] { relay.accept(value) }
    #expect(seen.values == ["a", "b", "a"])
    #expect(distinct.value == "a")
    _ = token
  }

  @Test func skippedChangesDoNotReachDerivedProperties() {
    let relay = BehaviorRelay(0)
    let computed = Recorder<Int>()
    let downstream = relay.asProperty().map { $0 / 10 }.removeDuplicates()
      .map { value -> Int in
        computed.record(value)
        return value
      }
    let token = downstream.subscribe { _ in }
    for value in [1, 5, 9, 10, 15] { relay.accept(value) }
    #expect(computed.values == [0, 1])
    _ = token
  }
}
