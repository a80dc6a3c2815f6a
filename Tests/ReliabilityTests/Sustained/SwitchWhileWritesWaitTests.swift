import Foundation
import Invalidating
import InvalidatingTestSupport
import Synchronization
import Testing

@testable import InvalidatingCore

/// A `flatMapLatest` read on demand while writes wait for delivery chooses its inner property
/// from the newest values, and makes it inside the read (its attachment queued, see
/// `AnyNode.awaitsAttachment`). The delivery may reuse that choice only for the writes it was
/// made from, and must attach the inner property before linking to it (issue 26, the
/// concurrent fuzz's `sinkTorn` and `sinkInconsistent`: seeds 4028760069 and 4028760070).
///
/// The first two tests build the interleaving step by step, as `HandedRoleInComputationTests`
/// does: a drainer held in a sink, writers that queue and park, then a read on another thread.
@Suite("flatMapLatest switching while writes wait")
struct SwitchWhileWritesWaitTests {
  typealias Spawned = HandedRoleInComputationTests.Spawned

  static func waitUntilParked(_ thread: Spawned, in domain: Domain, before: Int) -> Int {
    HandedRoleInComputationTests.waitUntilParkedOrReturned(thread, in: domain, before: before)
  }

  /// A delivery held on another thread: writes 1 to `relay` there and returns once a sink of
  /// `relay` holds that delivery, which goes on when `release` is signalled.
  static func holdDelivery(
    of relay: BehaviorRelay<Int>
  ) -> (drainer: Spawned, release: DispatchSemaphore, gate: SubscriptionToken) {
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let gate = relay.subscribe { value in
      if value == 1 {
        held.signal()
        release.wait()
      }
    }
    let drainer = Spawned { relay.accept(1) }
    held.wait()
    return (drainer, release, gate)
  }

  @Test("Each delivered outer value gets the inner property chosen for it, not for a newer one")
  func deliveryDoesNotTakeAChoiceMadeForNewerWrites() {
    let x = BehaviorRelay(0)
    let domain = x.asProperty().node.home
    // [the outer value the inner property was chosen for, the value it reads]: equal in
    // every state.
    let f = x.asProperty().flatMapLatest { outer in x.asProperty().map { [outer, $0] } }
    let seen = Locked<[[Int]]>([])
    let observer = f.subscribe { value in seen.withLock { $0.append(value) } }
    let (drainer, release, gate) = Self.holdDelivery(of: x)
    // Two writes wait for their turn behind the held delivery.
    let second = Spawned { x.accept(2) }
    let waiting = Self.waitUntilParked(second, in: domain, before: 0)
    let third = Spawned { x.accept(3) }
    _ = Self.waitUntilParked(third, in: domain, before: waiting)
    // A read now chooses the inner property for 3, the newest value.
    #expect(f.value == [3, 3])
    release.signal()
    for thread in [drainer, second, third] { thread.done.wait() }
    // Before the fix the delivery of 2 took the read's choice, made for 3: [0, 0], [1, 1],
    // [3, 2] (the inner property chosen for 3, reading 2), [3, 3].
    #expect(seen.withLock { $0 } == [[0, 0], [1, 1], [2, 2], [3, 3]])
    #expect(f.value == [3, 3])
    observer.cancel()
    gate.cancel()
  }

  @Test("An inner property made by a read is attached before the delivery links to it")
  func deliveryAttachesTheInnerPropertyItTakes() {
    let selector = BehaviorRelay(0)
    let value = BehaviorRelay(10)
    let domain = selector.asProperty().node.home
    let f = selector.asProperty().flatMapLatest { _ in value.asProperty().map { $0 } }
    let both = Property.combineLatest(f, value.asProperty())
    let seen = Locked<[[Int]]>([])
    let observer = both.subscribe { pair in seen.withLock { $0.append([pair.0, pair.1]) } }
    let (drainer, release, gate) = Self.holdDelivery(of: selector)
    let switcher = Spawned { selector.accept(2) }
    _ = Self.waitUntilParked(switcher, in: domain, before: 0)
    // The read makes the inner property that the delivery of 2 takes: its attachment is
    // queued behind that delivery.
    #expect(f.value == 10)
    release.signal()
    for thread in [drainer, switcher] { thread.done.wait() }
    // Linked to `f` before its own attachment ran, the inner property is attached then; a
    // check of the engine's invariants stopped here before the fix ("an attached node
    // computed from an input not attached").
    let inner = f.node.lockedInputs()[1]
    #expect(
      inner.withRootLocked { root in
        let attached = inner.isAttached && !inner.awaitsAttachment
        root.lock.unlock()
        return attached
      })
    value.accept(11)
    #expect(seen.withLock { $0.last } == [11, 11])
    #expect(seen.withLock { $0 }.allSatisfy { $0[0] == $0[1] })
    observer.cancel()
    gate.cancel()
  }

  /// The shape the fuzz found, under sustained load: a writer of the value, a writer of the
  /// selector (every switch makes a new inner `map`), a reader whose pulls make inner
  /// properties, and a thread subscribing and cancelling, against one long-lived sink.
  ///
  /// The reader also watches what is computed from `computed`: each switch, and each read on
  /// demand, makes an inner `map` and drops the one before. A dropped map's detachment was
  /// queued behind everything the domain had queued, so under these writers the dead maps
  /// piled up to the hand-over limit, each recomputed by every write: with 2,000 writes a
  /// thread, 781 to 1,008 nodes at once downstream of `computed` seen by a thread watching it
  /// (3 runs), 64 seen by the reader here, and 28 to 74 s in a debug build (so this test ran
  /// 600 writes a thread). Detachments now go ahead of the queue: 3 to 5 nodes, under a
  /// second.
  @Test("A sink of a combination through a switching property never sees two values of one relay")
  func sinkNeverTornUnderLoad() {
    let writes = Sustained.isUnderThreadSanitizer ? 300 : 2_000
    let selector = BehaviorRelay(0)
    let value = BehaviorRelay(0)
    let computed = Property { value.value }
    let f = selector.asProperty().flatMapLatest { _ in computed.map { $0 } }
    let both = Property.combineLatest(f, computed)
    let torn = Counter()
    let calls = Counter()
    let sink: @Sendable ((Int, Int)) -> Void = { pair in
      calls.increment()
      if pair.0 != pair.1 { torn.increment() }
    }
    let observer = both.subscribe(sink)
    let readTorn = Counter()
    let mostDownstream = Maximum()
    let finished = runConcurrently(threads: 4) { thread in
      for i in 0..<writes {
        switch thread {
        case 0: value.accept(i + 1)
        case 1: selector.accept(i)
        case 2:
          // Reads pull while writes wait; a single write is atomic for every reader, but a
          // read racing two writes may combine them (rule 16), so only counted.
          let pair = both.value
          if pair.0 != pair.1 { readTorn.increment() }
          _ = f.value
          let node = computed.node
          let root = node.home.lockRoot()
          let downstream = node.downstream.count
          root.lock.unlock()
          mostDownstream.record(downstream)
        default:
          if i % 3 == 0 {
            let token = both.subscribe(sink)
            token.cancel()
          } else {
            _ = f.value
          }
        }
      }
    }
    #expect(finished)
    // Before the fix: 14 to 24 torn values in about 4,000 sink calls of 1,000 writes a
    // thread (3 of 3 runs), and in a debug build the invariant check of the second test.
    print(
      "Switching under load: \(torn.value) torn sink values in \(calls.value) calls; "
        + "\(readTorn.value) reads combining two writes")
    print("Switching under load: at most \(mostDownstream.value) nodes downstream")
    #expect(torn.value == 0)
    // `both`, the live inner map, and the few made by reads under way.
    #expect(mostDownstream.value <= 16)
    #expect(both.value.0 == writes && both.value.1 == writes)
    observer.cancel()
  }
}
