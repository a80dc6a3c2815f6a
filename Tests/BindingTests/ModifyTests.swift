import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct ModifyTests {
  struct Failure: Error {}

  @Test func modifyChangesTheValueInPlaceAndDeliversIt() {
    let relay = BehaviorRelay([1, 2])
    let seen = Recorder<[Int]>()
    let token = relay.subscribe(seen.sink)
    relay.modify { $0.append(3) }
    #expect(relay.value == [1, 2, 3])
    #expect(seen.values == [[1, 2], [1, 2, 3]])
    _ = token
  }

  @Test func modifyReturnsTheBodysResult() {
    let relay = BehaviorRelay(5)
    let previous = relay.modify { value -> Int in
      defer { value = 0 }
      return value
    }
    #expect(previous == 5)
    #expect(relay.value == 0)
  }

  @Test func aThrowingBodyWritesNothing() {
    let relay = BehaviorRelay(1)
    let seen = Recorder<Int>()
    let token = relay.subscribe(seen.sink)
    #expect(throws: Failure.self) {
      try relay.modify { value in
        value = 99
        throw Failure()
      }
    }
    #expect(relay.value == 1)
    #expect(seen.values == [1])
    relay.accept(2)  // the relay is unlocked and still delivers
    #expect(seen.values == [1, 2])
    _ = token
  }

  @Test func insideABatchTheValueIsCurrentAtOnceAndDeliveredOnceAtTheEnd() {
    let relay = BehaviorRelay(0)
    let doubled = relay.map { $0 * 2 }
    let seen = Recorder<Int>()
    let token = doubled.subscribe(seen.sink)
    batch {
      relay.modify { $0 += 1 }
      relay.modify { $0 += 1 }
      #expect(relay.value == 2)
      #expect(doubled.value == 4)
      #expect(seen.values == [0])
    }
    #expect(seen.values == [0, 4])
    _ = token
  }

  @Test func modifyFromASinkIsQueuedLikeAccept() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let bump = relay.subscribe { if $0 == 1 { relay.modify { $0 += 10 } } }
    let token = relay.subscribe(seen.sink)
    relay.accept(1)
    // Not nested: the second sink sees 1 before 11, and ends on the latest value.
    #expect(seen.values == [0, 1, 11])
    #expect(relay.value == 11)
    _ = (bump, token)
  }

  @Test func theReplacedValueIsReleasedAfterTheLock() {
    // A value whose deinit reads the relay would deadlock if it died under the lock.
    final class Probe: Sendable {
      let onDeinit: @Sendable () -> Void
      init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
      deinit { onDeinit() }
    }
    let relay = BehaviorRelay<Probe?>(nil)
    let seen = Recorder<Bool>()
    relay.accept(Probe { seen.record(relay.value == nil) })
    relay.modify { $0 = nil }
    #expect(seen.values == [true])
  }
}
