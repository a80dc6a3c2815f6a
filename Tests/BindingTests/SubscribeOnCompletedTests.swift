import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct SubscribeOnCompletedTests {
  @Test func completionRunsOnceAfterTheLastValueWhenTheRelayIsReleased() {
    var relay: BehaviorRelay<Int>? = BehaviorRelay(0)
    let property = relay!.asProperty()
    let seen = Recorder<String>()
    let token = property.subscribe {
      seen.record("\($0)")
    } onCompleted: {
      seen.record("completed")
    }
    relay!.accept(1)
    #expect(seen.values == ["0", "1"])
    relay = nil
    #expect(seen.values == ["0", "1", "completed"])
    _ = token
  }

  @Test func aDerivedPropertyCompletesWhenAllItsRelaysAreReleased() {
    var first: BehaviorRelay<Int>? = BehaviorRelay(1)
    var second: BehaviorRelay<Int>? = BehaviorRelay(2)
    let sum = Property.combineLatest(first!, second!).map { $0 + $1 }
    let completions = Recorder<Int>()
    let token = sum.subscribe({ _ in }, onCompleted: { completions.record(sum.value) })
    first = nil
    #expect(completions.values.isEmpty)
    second = nil
    #expect(completions.values == [3])
    _ = token
  }

  @Test func noCompletionAfterCancel() {
    var relay: BehaviorRelay<Int>? = BehaviorRelay(0)
    let completions = Recorder<Void>()
    let token = relay!.subscribe({ _ in }, onCompleted: { completions.record(()) })
    token.cancel()
    relay = nil
    #expect(completions.count == 0)
  }

  @Test func aConstantPropertyCompletesAtOnceAfterItsValue() {
    let seen = Recorder<String>()
    let token = Property(value: 5).subscribe {
      seen.record("\($0)")
    } onCompleted: {
      seen.record("completed")
    }
    #expect(seen.values == ["5", "completed"])
    _ = token
  }

  @Test func releasingInsideABatchCompletesAfterTheBatchsWrites() {
    var relay: BehaviorRelay<Int>? = BehaviorRelay(0)
    let seen = Recorder<String>()
    let token = relay!.asProperty().subscribe {
      seen.record("\($0)")
    } onCompleted: {
      seen.record("completed")
    }
    batch {
      relay!.accept(1)
      relay = nil
      #expect(seen.values == ["0"])
    }
    #expect(seen.values == ["0", "1", "completed"])
    _ = token
  }
}
