import Dispatch
import Foundation
import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

/// A computed property read inside the batch that wrote its inputs is computed by that read,
/// and the batch's delivery takes the value the read computed instead of running the
/// computation again (rule 3: computed once per change), whenever nothing the value depends
/// on moved in between.
@Suite("A read inside the batch that wrote computes each value once")
struct ReadInBatchTests {
  @Test func theDeliveryTakesTheValueTheReadComputed() {
    let a = BehaviorRelay(1)
    let runs = Counter()
    let doubled = Property<Int> {
      runs.bump()
      return a.value * 2
    }
    let seen = Recorder<Int>()
    let token = doubled.subscribe(seen.sink)
    let before = runs.value
    batch {
      a.accept(5)
      #expect(doubled.value == 10)
    }
    #expect(runs.value == before + 1)  // the read's run only
    #expect(seen.values == [2, 10])
    // Later writes go on as usual: the delivery runs the computation when nothing was read.
    a.accept(6)
    #expect(runs.value == before + 2)
    #expect(seen.values == [2, 10, 12])
    token.cancel()
  }

  @Test func aChainAndItsSumAreEachComputedOncePerBatch() {
    // The benchmark's `triangle`: a chain, and a sum over every link, read in the batch.
    let head = BehaviorRelay(0)
    let runs = Counter()
    var links = [head.asProperty()]
    for _ in 1..<5 {
      let previous = links[links.count - 1]
      links.append(
        Property<Int> {
          runs.bump()
          return previous.value + 1
        })
    }
    let terms = links
    let sum = Property<Int> {
      runs.bump()
      return terms.reduce(0) { $0 + $1.value }
    }
    let seen = Recorder<Int>()
    let token = sum.subscribe(seen.sink)
    for value in 1...3 {
      let before = runs.value
      batch {
        head.accept(value)
        #expect(sum.value == 5 * value + 10)
      }
      #expect(runs.value - before == 5)  // four links and the sum, once each
    }
    #expect(seen.values == [10, 15, 20, 25])
    token.cancel()
  }

  @Test func aWriteAfterTheReadIsComputedByTheDelivery() {
    let a = BehaviorRelay(1)
    let runs = Counter()
    let doubled = Property<Int> {
      runs.bump()
      return a.value * 2
    }
    let seen = Recorder<Int>()
    let token = doubled.subscribe(seen.sink)
    let before = runs.value
    batch {
      a.accept(2)
      #expect(doubled.value == 4)
      a.accept(3)
    }
    #expect(runs.value == before + 2)  // the read's, then the delivery's for the later write
    #expect(seen.values == [2, 6])
    token.cancel()
  }

  @Test func aReadThatTookAnotherBranchIsRunAgainAndRelinked() {
    let useX = BehaviorRelay(true)
    let x = BehaviorRelay(1)
    let y = BehaviorRelay(100)
    let runs = Counter()
    let chosen = Property<Int> {
      runs.bump()
      return useX.value ? x.value : y.value
    }
    let seen = Recorder<Int>()
    let token = chosen.subscribe(seen.sink)
    let before = runs.value
    batch {
      useX.accept(false)
      #expect(chosen.value == 100)
    }
    // The read did not read what the node is linked to: the delivery runs it, and relinks.
    #expect(runs.value == before + 2)
    y.accept(101)
    x.accept(2)  // no longer read
    #expect(seen.values == [1, 100, 101])
    token.cancel()
  }

  @Test func aSubscriberAttachedBetweenTheReadAndTheDeliveryEndsLinkedToTheNewBranch() {
    // `chosen` is linked to `useX` and `y` (made with `useX` false), and suspended: a write
    // while nobody observes it does not relink it. Inside the batch, the read runs it with
    // the newest values, reading exactly `useX` and `y`; then a subscriber attaches it,
    // computed from the delivered values (`useX` true), which relinks it to `useX` and `x`.
    // After the batch it must be linked to `y` again, whichever run the delivery takes.
    let useX = BehaviorRelay(false)
    let x = BehaviorRelay(1)
    let y = BehaviorRelay(100)
    let chosen = Property<Int> { useX.value ? x.value : y.value }
    useX.accept(true)
    let seen = Recorder<Int>()
    var token: SubscriptionToken?
    batch {
      useX.accept(false)
      #expect(chosen.value == 100)
      token = chosen.subscribe(seen.sink)
    }
    y.accept(101)
    x.accept(2)
    #expect(seen.values.last == 101)
    #expect(chosen.value == 101)
    token?.cancel()
  }

  @Test func aWriteFromAnotherThreadBetweenTheReadAndTheDeliveryIsComputed() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(10)
    let runs = Counter()
    let total = Property<Int> {
      runs.bump()
      return a.value + b.value
    }
    let seen = Recorder<Int>()
    let token = total.subscribe(seen.sink)
    batch {
      a.accept(2)
      #expect(total.value == 12)
      // Another thread writes `b` while this batch holds `a`'s write: its delivery combines
      // the delivered `a` with its own write, and the batch's value read above is stale.
      let done = DispatchSemaphore(value: 0)
      Thread {
        b.accept(20)
        done.signal()
      }.start()
      done.wait()
    }
    #expect(seen.values == [11, 21, 22])
    #expect(total.value == 22)
    token.cancel()
  }
}
