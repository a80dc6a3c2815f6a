import Dispatch
import Invalidating
import InvalidatingCore
import InvalidatingTestSupport
import Observation
import Synchronization
import Testing

/// An `@Observable` model the computations below read in some of their branches.
@Observable
private final class Knob: @unchecked Sendable {
  // Safe for these tests: written on one thread at a time, while no computation reads it
  // concurrently, or only read concurrently.
  var x = 0
  var y = 0
}

/// A value that is not `Equatable`: every computation notifies.
private struct Box: Sendable {
  let value: Int
}

/// The per-segment Observation tracking of computed properties (`recomputeSegment`,
/// `pullInSegment`), the per-thread delivery tracker, repeated reads and the pull's marks.
@Suite("Computed properties: segments of Observation tracking, delivery tracker, pull marks")
struct ComputedObservationSegmentTests {
  // MARK: - Delivery segments

  @Test func aComputationRunTwiceInOneSegmentThatStartsReadingAnObservableIsHandled() {
    // `late` reads `flag`, then (once `flag` is set) `tens`, which ranks above it: relinked in
    // the event, it runs again after `tens` changes, in the same segment of untracked runs.
    // That segment also reads `knob` (through `late`), so its runs are tracked again.
    let knob = Knob()
    knob.x = 5
    let flag = BehaviorRelay(false)
    let early = Property { flag.value ? 2 : 3 }  // listed in the segment before `late`
    let ones = Property { flag.value ? 1 : 0 }
    let tens = Property { ones.value * 10 }
    let runs = Counter()
    let late = Property<Int> {
      runs.bump()
      return flag.value ? tens.value + knob.x : -1
    }
    let seenLate = Recorder<Int>()
    let seenEarly = Recorder<Int>()
    let tokens = [late.subscribe(seenLate.sink), early.subscribe(seenEarly.sink)]
    flag.accept(true)
    #expect(seenLate.values == [-1, 15])
    #expect(seenEarly.values == [3, 2])
    batch { knob.x = 7 }
    #expect(seenLate.values == [-1, 15, 17])
    #expect(late.value == 17)
    _ = tokens
  }

  @Test func aBranchIntoAnObservableAmongOtherComputedsNotifiesEachSubscriberOnce() {
    let knob = Knob()
    knob.x = 100
    let a = BehaviorRelay(1)
    let plain1 = Property { a.value + 1 }
    let branching = Property { a.value > 1 ? a.value + knob.x : a.value }
    let plain2 = Property { a.value * 2 }
    let joined = Property { plain1.value + branching.value + plain2.value }
    let boxed = Property { Box(value: joined.value) }  // not Equatable
    let seen1 = Recorder<Int>()
    let seenBranching = Recorder<Int>()
    let seen2 = Recorder<Int>()
    let seenJoined = Recorder<Int>()
    let seenBoxed = Recorder<Int>()
    let tokens = [
      plain1.subscribe(seen1.sink), branching.subscribe(seenBranching.sink),
      plain2.subscribe(seen2.sink), joined.subscribe(seenJoined.sink),
      boxed.subscribe { seenBoxed.record($0.value) },
    ]
    a.accept(2)  // `branching` reads `knob` from now on
    #expect(seen1.values == [2, 3])
    #expect(seenBranching.values == [1, 102])
    #expect(seen2.values == [2, 4])
    #expect(seenJoined.values == [5, 109])
    #expect(seenBoxed.values == [5, 109])
    batch { knob.x = 200 }  // followed from then on
    #expect(seen1.values == [2, 3])
    #expect(seenBranching.values == [1, 102, 202])
    #expect(seen2.values == [2, 4])
    #expect(seenJoined.values == [5, 109, 209])
    #expect(seenBoxed.values == [5, 109, 209])
    a.accept(3)
    #expect(seenJoined.values == [5, 109, 209, 213])
    #expect(seenBoxed.values == [5, 109, 209, 213])
    _ = tokens
  }

  @Test func aSeenNodeInTheMiddleOfAChainSplitsTheSegmentAndValuesStayRight() {
    let knob = Knob()
    knob.x = 1000
    let a = BehaviorRelay(1)
    let switcher = BehaviorRelay(false)
    let first = Property { a.value + 1 }
    // Reads `switcher` and, once it is set, `knob`: not seen reading until then.
    let second = Property { switcher.value ? first.value + knob.y : first.value }
    let seenMiddleRuns = Counter()
    let middle = Property<Int> {  // seen reading from its first run
      seenMiddleRuns.bump()
      return second.value + knob.x
    }
    let third = Property { middle.value * 2 }
    let fourth = Property { Box(value: third.value + 1) }
    let seenMiddle = Recorder<Int>()
    let seenThird = Recorder<Int>()
    let seenFourth = Recorder<Int>()
    let tokens = [
      middle.subscribe(seenMiddle.sink), third.subscribe(seenThird.sink),
      fourth.subscribe { seenFourth.record($0.value) },
    ]
    a.accept(2)
    #expect(seenMiddle.values == [1002, 1003])
    #expect(seenThird.values == [2004, 2006])
    #expect(seenFourth.values == [2005, 2007])
    knob.y = 0
    batch {
      switcher.accept(true)  // `second` now reads `knob.y`, ahead of the seen `middle`
      a.accept(3)
    }
    #expect(seenMiddle.values == [1002, 1003, 1004])
    #expect(seenThird.values == [2004, 2006, 2008])
    #expect(seenFourth.values == [2005, 2007, 2009])
    batch { knob.y = 10 }  // `second` follows `knob.y` now
    #expect(seenMiddle.values == [1002, 1003, 1004, 1014])
    #expect(seenThird.values == [2004, 2006, 2008, 2028])
    #expect(seenFourth.values == [2005, 2007, 2009, 2029])
    _ = tokens
  }

  @Test func anEquatableAndANonEquatableComputedRunAgainInOneEventNotifyOnce() {
    let knob = Knob()
    knob.x = 7
    let a = BehaviorRelay(1)
    let parity = Property { a.value % 2 }  // Equatable, unchanged by 1 -> 3
    let sum = Property { a.value > 2 ? a.value + knob.x : a.value }  // Equatable, changes
    let boxed = Property { Box(value: a.value > 2 ? a.value * knob.x : a.value) }
    let seenParity = Recorder<Int>()
    let seenSum = Recorder<Int>()
    let seenBoxed = Recorder<Int>()
    let tokens = [
      parity.subscribe(seenParity.sink), sum.subscribe(seenSum.sink),
      boxed.subscribe { seenBoxed.record($0.value) },
    ]
    a.accept(3)
    #expect(seenParity.values == [1])
    #expect(seenSum.values == [1, 10])
    #expect(seenBoxed.values == [1, 21])
    batch { knob.x = 8 }
    #expect(seenParity.values == [1])
    #expect(seenSum.values == [1, 10, 11])
    #expect(seenBoxed.values == [1, 21, 24])
    _ = tokens
  }

  @Test func changesAndAScanOfAComputedRunAgainInTheEventCountEachEventOnce() {
    let knob = Knob()
    knob.x = 10
    let a = BehaviorRelay(0)
    let plain = Property { a.value + 1 }
    let branching = Property { a.value > 0 ? plain.value + knob.x : plain.value }
    let changed = Recorder<Int>()
    let changesSeen = branching.changes
    let eventCount = changesSeen.scan(into: 0) { count, _ in count += 1 }
    let counts = Recorder<Int>()
    let tokens = [changesSeen.subscribe(changed.sink), eventCount.subscribe(counts.sink)]
    a.accept(1)  // `branching` and `plain` run again, tracked, in this event
    #expect(changed.values == [12])
    #expect(counts.values == [0, 1])
    batch { knob.x = 20 }
    #expect(changed.values == [12, 22])
    #expect(counts.values == [0, 1, 2])
    _ = tokens
  }

  // MARK: - Pulls

  @Test func aComputedMadeAndReadInsideAPulledComputationThatReadsAnObservable() {
    // The made property is pulled in the segment, listed, and dropped with the run.
    let knob = Knob()
    knob.x = 1
    let a = BehaviorRelay(1)
    let outer = Property<Int> {
      let made = Property { a.value * 10 }
      return made.value + knob.x
    }
    let token = outer.subscribe { _ in }
    for value in 2...50 {
      batch {
        a.accept(value)
        #expect(outer.value == value * 10 + 1)
      }
    }
    #expect(outer.value == 501)
    token.cancel()
  }

  @Test func aDeliveredComputationReadsAComputedOfAnUnsettledDomain() {
    let knob = Knob()
    knob.x = 50
    let a = BehaviorRelay(0)
    let other = BehaviorRelay(1)
    let otherDoubled = Property { other.value * 2 }
    let otherPlusKnob = Property { otherDoubled.value + knob.x }
    let reader = Property { a.value > 0 ? a.value + otherPlusKnob.value : a.value }
    let sibling = Property { a.value * 3 }
    let seenReader = Recorder<Int>()
    let seenSibling = Recorder<Int>()
    let seenOther = Recorder<Int>()
    let tokens = [
      reader.subscribe(seenReader.sink), sibling.subscribe(seenSibling.sink),
      otherPlusKnob.subscribe(seenOther.sink),
    ]
    batch {
      other.accept(5)
      a.accept(1)  // `reader` now reads the other domain, which has a write waiting
    }
    #expect(reader.value == 61)
    #expect(seenReader.values.last == 61)
    #expect(seenSibling.values == [0, 3])
    #expect(seenOther.values == [52, 60])
    batch { knob.x = 60 }
    #expect(reader.value == 71)
    #expect(seenReader.values.last == 71)
    #expect(seenOther.values == [52, 60, 70])
    other.accept(6)
    #expect(reader.value == 73)
    #expect(seenReader.values.last == 73)
    _ = tokens
  }

  @Test func nestedPullsAcrossDomainsComputeFromTheNewestWrites() {
    let knob = Knob()
    knob.x = 1000
    let a = BehaviorRelay(0)
    let b = BehaviorRelay(1)
    let b1 = Property { b.value + 1 }
    let b2 = Property { b1.value * 10 }
    let b3 = Property { b2.value + knob.x }
    let a1 = Property { a.value > 0 ? a.value + b3.value : 0 }
    let a2 = Property { a1.value + a.value }
    let a3 = Property { a2.value * 2 }
    let a4 = Property { a3.value + 1 }
    let tokens = [a4.subscribe { _ in }, b3.subscribe { _ in }]
    batch {
      a.accept(1)
      b.accept(2)
      // a4 pulls a1, whose computation pulls b3 from the other domain, itself unsettled.
      #expect(a4.value == ((1 + 1030) + 1) * 2 + 1)
      #expect(b3.value == 1030)
      b.accept(3)
      #expect(a4.value == ((1 + 1040) + 1) * 2 + 1)
      knob.x = 2000
      #expect(a4.value == ((1 + 2040) + 1) * 2 + 1)
      a.accept(2)
      #expect(a4.value == ((2 + 2040) + 2) * 2 + 1)
    }
    #expect(a4.value == ((2 + 2040) + 2) * 2 + 1)
    _ = tokens
  }

  @Test func twoThreadsPullTheSameComputedInsideBatches() async {
    let knob = Knob()
    knob.x = 1
    let left = BehaviorRelay(0)
    let right = BehaviorRelay(0)
    let pair = Property { Pair(left: left.value, right: right.value * knob.x) }
    let leftOfPair = Property { pair.value.left }
    let rightOfPair = Property { pair.value.right + knob.y }
    let seen = Recorder<Pair>()
    let tokens = [pair.subscribe(seen.sink), leftOfPair.subscribe { _ in }]
    let mismatches = Counter()
    let iterations = 500
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 1...iterations {
          batch {
            left.accept(value)
            if pair.value.left != value || leftOfPair.value != value {
              mismatches.bump()
            }
          }
        }
      }
      group.addTask {
        for value in 1...iterations {
          batch {
            right.accept(value)
            if pair.value.right != value || rightOfPair.value != value {
              mismatches.bump()
            }
          }
        }
      }
    }
    #expect(mismatches.value == 0)
    #expect(pair.value == Pair(left: iterations, right: iterations))
    #expect(seen.last == Pair(left: iterations, right: iterations))
    _ = tokens
  }

  // MARK: - Repeated reads

  @Test func repeatedReadsThenABranchThatStopsReadingOneInput() {
    let flag = BehaviorRelay(true)
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(10)
    let runs = Counter()
    let total = Property<Int> {
      runs.bump()
      return flag.value ? a.value + b.value + a.value : a.value + a.value
    }
    let seen = Recorder<Int>()
    let token = total.subscribe(seen.sink)
    #expect(total.node.inputs.count == 3)
    a.accept(2)
    #expect(seen.values == [12, 14])
    #expect(total.node.relinkCount == 0)
    flag.accept(false)  // reads flag, a, a: no longer b
    #expect(seen.values == [12, 14, 4])
    #expect(total.node.inputs.count == 2)
    runs.reset()
    b.accept(20)  // not followed any more
    #expect(runs.value == 0)
    a.accept(3)
    #expect(seen.values == [12, 14, 4, 6])
    flag.accept(true)  // b again
    #expect(seen.values == [12, 14, 4, 6, 26])
    b.accept(30)
    #expect(seen.values == [12, 14, 4, 6, 26, 36])
    #expect(total.value == 36)
    token.cancel()
  }

  @Test func repeatedReadsInterleavedWithAnObservableInASegment() {
    let knob = Knob()
    knob.x = 100
    let flag = BehaviorRelay(true)
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(10)
    let total = Property { flag.value ? a.value + b.value + a.value : a.value + knob.x + a.value }
    let next = Property { total.value + b.value }
    let seenTotal = Recorder<Int>()
    let seenNext = Recorder<Int>()
    let tokens = [total.subscribe(seenTotal.sink), next.subscribe(seenNext.sink)]
    flag.accept(false)
    #expect(seenTotal.values == [12, 102])
    #expect(seenNext.values == [22, 112])
    b.accept(20)  // only `next` reads b now
    #expect(seenTotal.values == [12, 102])
    #expect(seenNext.values == [22, 112, 122])
    batch { knob.x = 200 }
    #expect(seenTotal.values == [12, 102, 202])
    #expect(seenNext.values == [22, 112, 122, 222])
    _ = tokens
  }

  // MARK: - Misuse

  @Test("A computation that reads its own value on demand still stops with the message")
  func aComputationReadingItselfInAPullStops() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      final class Holder: @unchecked Sendable {
        // Safe: set once before the relay is written, on this thread.
        var property: Property<Int>?
      }
      let relay = BehaviorRelay(0)
      let holder = Holder()
      let computed = Property { relay.value + (relay.value > 0 ? holder.property?.value ?? 0 : 0) }
      holder.property = computed
      batch {
        relay.accept(1)
        _ = computed.value  // computed on demand: reads itself
      }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("depends on itself"))
  }

  // MARK: - View passes

  @MainActor
  @Test func aViewPassReadingComputedPropertiesFollowsThemAndTheirObservableReads() {
    final class TotalView: HeadlessView {
      let total: Property<Int>
      let label: Property<String>
      init(total: Property<Int>, label: Property<String>) {
        self.total = total
        self.label = label
        super.init(frame: .zero)
      }
      override func render() -> String { "\(label.value): \(total.value)" }
    }
    let knob = Knob()
    knob.x = 5
    let useKnob = BehaviorRelay(false)
    let count = BehaviorRelay(2)
    let total = Property { useKnob.value ? count.value * knob.x : count.value }
    let label = Property { useKnob.value ? "scaled" : "plain" }
    let view = TotalView(total: total, label: label)
    view.displayIfNeeded()
    #expect(view.renderedText == "plain: 2")
    count.accept(3)
    #expect(view.needsDisplay)
    view.displayIfNeeded()
    #expect(view.renderedText == "plain: 3")
    useKnob.accept(true)
    #expect(view.needsDisplay)
    view.displayIfNeeded()
    #expect(view.renderedText == "scaled: 15")
    batch { knob.x = 6 }
    #expect(view.needsDisplay)
    view.displayIfNeeded()
    #expect(view.renderedText == "scaled: 18")
    #expect(!view.needsDisplay)
  }

  @MainActor
  @Test func outsideABatchAnObservableReadFirstSeenInASegmentArrivesLater() async {
    let knob = Knob()
    knob.x = 1
    let a = BehaviorRelay(0)
    let plain = Property { a.value + 1 }
    let branching = Property { a.value > 0 ? plain.value * knob.x : -1 }
    let seen = Recorder<Int>()
    let token = branching.subscribe(seen.sink)
    a.accept(1)
    #expect(seen.values == [-1, 2])
    knob.x = 5  // registered by the tracked run again: arrives one main-actor turn later
    #expect(await waitUntil { seen.values == [-1, 2, 10] })
    knob.x = 6
    #expect(await waitUntil { seen.values == [-1, 2, 10, 12] })
    token.cancel()
  }
}

private struct Pair: Equatable, Sendable {
  let left: Int
  let right: Int
}
