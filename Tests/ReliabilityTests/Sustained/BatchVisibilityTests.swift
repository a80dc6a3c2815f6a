import Dispatch
import Foundation
import Invalidating
import InvalidatingTestSupport
import Synchronization
import Testing

/// Rule 16 of the contract: a batch groups deliveries, not visibility. While one thread runs a
/// batch, other threads' reads (a new subscriber's first value among them) see each of its
/// writes as soon as it is made, and may combine some of them with values from before the rest;
/// deliveries never do: every sink receives the batch's changes together when it ends.
@Suite("Batches and other threads")
struct BatchVisibilityTests {
  @Test("Another thread reads each write of a batch at once; its sinks get the batch whole")
  func readsSeeWritesAtOnceDeliveriesWaitForTheEnd() {
    let a = BehaviorRelay(0)
    let b = BehaviorRelay(0)
    let pair = Property.combineLatest(a.asProperty(), b.asProperty()).map { [$0, $1] }
    let firstWriteMade = DispatchSemaphore(value: 0)
    let mayFinish = DispatchSemaphore(value: 0)
    let batchEnded = DispatchSemaphore(value: 0)
    Thread {
      batch {
        a.accept(1)
        firstWriteMade.signal()
        mayFinish.wait()
        b.accept(1)
      }
      batchEnded.signal()
    }.start()
    firstWriteMade.wait()
    // Half-way through the other thread's batch.
    #expect(a.value == 1)
    #expect(pair.value == [1, 0])
    let seen = Recorder<[Int]>()
    let token = pair.subscribe(seen.sink)
    #expect(seen.values == [[1, 0]])  // a first value may show part of a batch
    mayFinish.signal()
    batchEnded.wait()
    #expect(seen.values == [[1, 0], [1, 1]])  // then the batch, whole
    _ = token
  }

  static var rounds: Int { Sustained.isUnderThreadSanitizer ? 2_000 : 20_000 }

  @Test("Under batches that never pause, no delivery shows half a batch")
  func deliveriesNeverShowHalfABatch() {
    let a = BehaviorRelay(0)
    let b = BehaviorRelay(0)
    let difference = Property.combineLatest(a.asProperty(), b.asProperty()).map { $0 - $1 }
    let torn = Atomic<Int>(0)
    let halfFirstValues = Atomic<Int>(0)
    let longLived = difference.subscribe { if $0 != 0 { torn.add(1, ordering: .relaxed) } }
    let stop = Atomic<Bool>(false)
    let finished = runConcurrently(threads: 2, timeout: 120 * Sustained.slowdown) { thread in
      if thread == 0 {
        var k = 1
        while !stop.load(ordering: .relaxed) {
          batch {
            a.accept(k)
            b.accept(k)
          }
          k += 1
        }
        return
      }
      for _ in 0..<Self.rounds / 10 {
        let calls = Atomic<Int>(0)
        let token = difference.subscribe { value in
          let call = calls.add(1, ordering: .relaxed).newValue
          if value != 0 {
            if call == 1 {
              halfFirstValues.add(1, ordering: .relaxed)
            } else {
              torn.add(1, ordering: .relaxed)
            }
          }
        }
        token.cancel()
      }
      stop.store(true, ordering: .relaxed)
    }
    #expect(finished)
    print(
      "sustained: batches and other threads: \(torn.load(ordering: .relaxed)) torn deliveries, "
        + "\(halfFirstValues.load(ordering: .relaxed)) of \(Self.rounds / 10) first values "
        + "showed part of a batch (allowed)")
    #expect(torn.load(ordering: .relaxed) == 0)
    _ = longLived
  }
}
