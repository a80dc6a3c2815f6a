import InvalidatingBinding
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

/// Issue 30: the branch a computed property's flip lets go leaves the graph as the write's
/// event ends (its delivery's session keeps it until then, `Engine.detachReleased`), not
/// through the queue; the rules are those of `Engine.detachAfterDelivery(_:)`.
@Suite("A branch let go by a flip: detached once the event is delivered")
struct BranchDetachTests {
  /// A computed property that reads `double` on odd values of `source`, `inverse` on even ones.
  static func flipping(over source: BehaviorRelay<Int>) -> (
    double: Property<Int>, inverse: Property<Int>, current: Property<Int>
  ) {
    let double = Property { source.value * 2 }
    let inverse = Property { -source.value }
    return (double, inverse, Property { source.value % 2 != 0 ? double.value : inverse.value })
  }

  @Test("Detached before the write returns, in a batch or not, and attached again by a flip back")
  func detachedOnceTheEventIsDelivered() {
    let head = BehaviorRelay(0)
    let (double, inverse, current) = Self.flipping(over: head)
    let seen = Recorder<Int>()
    let token = current.subscribe(seen.sink)
    #expect(inverse.node.isAttached && !double.node.isAttached)
    head.accept(1)
    #expect(double.node.isAttached && !inverse.node.isAttached)
    batch { head.accept(2) }
    #expect(inverse.node.isAttached && !double.node.isAttached)
    head.accept(3)
    #expect(double.node.isAttached && !inverse.node.isAttached)
    #expect(seen.values == [0, 2, -2, 6])
    #expect(inverse.value == -3)  // computed on demand
    token.cancel()
    #expect(!current.node.isAttached && !double.node.isAttached)
  }

  @Test("Let go in a sink's write, a cascade queued behind the event, it is detached too")
  func detachedAfterASinksWrite() {
    let head = BehaviorRelay(0)
    let echo = BehaviorRelay(0)
    let (double, inverse, current) = Self.flipping(over: echo)
    let seen = Recorder<Int>()
    let token = current.subscribe(seen.sink)
    let forward = head.subscribe { echo.accept($0) }
    head.accept(1)
    #expect(double.node.isAttached && !inverse.node.isAttached)
    head.accept(2)
    #expect(inverse.node.isAttached && !double.node.isAttached)
    #expect(seen.values == [0, 2, -2])
    _ = (token, forward)
  }
}
