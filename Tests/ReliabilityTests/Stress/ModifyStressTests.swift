import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct ModifyStressTests {
  /// `modify` is atomic: 8 threads incrementing one relay 10,000 times each lose no increment,
  /// where `accept(value + 1)` would.
  @Test func concurrentIncrementsAreNeverLost() {
    let threads = 8
    let increments = 10_000
    let counter = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let token = counter.subscribe { if $0 % 10_000 == 0 { seen.record($0) } }
    let finished = runConcurrently(threads: threads) { _ in
      for _ in 0..<increments { counter.modify { $0 += 1 } }
    }
    #expect(finished)
    print("modify: \(threads) threads x \(increments) increments = \(counter.value)")
    #expect(counter.value == threads * increments)
    // After the writers stop, the subscriber has seen the final value (rule 5).
    #expect(seen.last == threads * increments)
    _ = token
  }
}
