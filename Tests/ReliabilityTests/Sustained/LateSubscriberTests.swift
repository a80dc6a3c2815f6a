import Foundation
import Invalidating
import InvalidatingTestSupport
import Testing

/// Rule 11: a new subscriber starts from `value` (issue 13, defect 7). Its first value is the
/// newest write at the moment it subscribed, never an older one, and it is not given that value
/// twice; a change stream reports only writes made after it subscribed.
///
/// A subscriber that subscribed while a write was pending (inside a batch, or from a sink after
/// a queued re-entrant write) used to start from the value delivered so far: `[0, 5]` instead
/// of `[5]`, and `changes` reported the write made before it subscribed.
@Suite("Sustained load: a subscriber that subscribes while a write is pending")
struct LateSubscriberTests {
  @Test("Subscribing inside a batch after a write: the sink gets that write's value, once")
  func subscribeInsideABatch() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let token = batch {
      relay.accept(5)
      return relay.subscribe(seen.sink)
    }
    print("sustained: subscribed in a batch after accept(5): \(seen.values)")
    #expect(seen.values == [5])
    relay.accept(6)
    #expect(seen.values == [5, 6])
    token.cancel()
  }

  @Test("Subscribing to a derived property inside a batch after a write")
  func subscribeToADerivedPropertyInsideABatch() {
    let relay = BehaviorRelay(0)
    let doubled = relay.asProperty().map { $0 * 2 }
    let seen = Recorder<Int>()
    let token = batch {
      relay.accept(5)
      return doubled.subscribe(seen.sink)
    }
    print("sustained: subscribed to a map in a batch after accept(5): \(seen.values)")
    #expect(seen.values == [10])
    token.cancel()
  }

  @Test("A values iterator made inside a batch after a write starts from that write")
  func valuesInsideABatch() async {
    let relay = BehaviorRelay(0)
    var iterator = batch {
      relay.accept(5)
      return relay.asProperty().values.makeAsyncIterator()
    }
    let first = await iterator.next()
    relay.accept(6)
    let second = await iterator.next()
    print("sustained: values made in a batch after accept(5): \(first ?? -1), \(second ?? -1)")
    #expect(first == 5)
    #expect(second == 6)
  }

  @Test("A change stream subscribed inside a batch does not report the write made before it")
  func changesInsideABatch() {
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let token = batch {
      relay.accept(5)
      return relay.asProperty().changes.subscribe(seen.sink)
    }
    let afterBatch = seen.values
    relay.accept(6)
    print(
      "sustained: changes subscribed in a batch after accept(5): \(afterBatch), then \(seen.values)"
    )
    #expect(afterBatch == [])
    #expect(seen.values == [6])
    token.cancel()
  }

  @Test("A changes iterator made inside a batch does not report the write made before it")
  func changesIteratorInsideABatch() async {
    let relay = BehaviorRelay(0)
    var iterator = batch {
      relay.accept(5)
      return relay.asProperty().changes.values.makeAsyncIterator()
    }
    relay.accept(6)
    let first = await iterator.next()
    print("sustained: changes iterator made in a batch after accept(5): first \(first ?? -1)")
    #expect(first == 6)
  }

  @Test("Subscribing from a sink after a queued re-entrant write starts from that write")
  func subscribeFromASinkAfterAReentrantWrite() {
    final class Late: @unchecked Sendable {
      // Safe: written once, by the sink, on the thread that delivers; read after delivery.
      var token: SubscriptionToken?
    }
    let relay = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let late = Late()
    let trigger = relay.subscribe { value in
      guard value == 1 else { return }
      relay.accept(2)  // queued behind the delivery of 1
      late.token = relay.subscribe(seen.sink)
    }
    relay.accept(1)
    print("sustained: subscribed from a sink after a queued accept(2): \(seen.values)")
    #expect(seen.values == [2])
    #expect(relay.value == 2)
    trigger.cancel()
    late.token?.cancel()
  }
}
