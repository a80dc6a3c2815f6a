import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

/// A suspended computed property resumed by the delivered run of another that starts reading
/// it: its own reads are its own, never mixed with those of the run that resumed it.
@Suite("Computed properties resumed inside another's delivered run")
struct ComputedPropertyResumeTests {
  @Test("A suspended property whose branch flipped, read by a subscribed one, is not its own input")
  func resumedInsideADeliveredRun() {
    let flag = BehaviorRelay(false)
    let x = BehaviorRelay(0)
    let y = BehaviorRelay(10)
    let z = BehaviorRelay(20)
    let inner = Property { x.value % 2 == 0 ? y.value : z.value }  // suspended
    let outer = Property { flag.value ? inner.value : -1 }
    let seen = Recorder<Int>()
    let token = outer.subscribe(seen.sink)
    x.accept(1)  // the inner branch flips while suspended
    flag.accept(true)  // stopped with "depends on itself"
    z.accept(21)
    y.accept(11)  // no longer read
    #expect(seen.values == [-1, 20, 21])
    #expect(inner.value == 21)
    _ = token
  }

  @Test("The same, the outer property reading the inner one after its own other reads")
  func resumedAfterOtherReads() {
    let flag = BehaviorRelay(false)
    let x = BehaviorRelay(0)
    let y = BehaviorRelay(10)
    let z = BehaviorRelay(20)
    let extra = BehaviorRelay(1000)
    let inner = Property { x.value % 2 == 0 ? y.value : z.value }
    let outer = Property { extra.value + (flag.value ? inner.value : 0) }
    let seen = Recorder<Int>()
    let token = outer.subscribe(seen.sink)
    x.accept(1)
    flag.accept(true)
    x.accept(2)
    y.accept(12)
    #expect(seen.values == [1000, 1020, 1010, 1012])
    _ = token
  }
}
