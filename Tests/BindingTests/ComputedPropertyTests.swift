import Dispatch
import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Synchronization
import Testing

@Suite("Computed properties: dependencies are what the computation read")
struct ComputedPropertyTests {
  @Test func aComputedPropertyFollowsWhatItReads() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(10)
    let sum = Property { a.value + b.value }
    let seen = Recorder<Int>()
    let token = sum.subscribe(seen.sink)
    a.accept(2)
    b.accept(20)
    #expect(seen.values == [11, 12, 22])
    #expect(sum.value == 22)
    token.cancel()
  }

  @Test func readingOneInputAgainIsNotANewDependency() {
    let a = BehaviorRelay(1)
    let tripled = Property { a.value + a.value + a.value }
    let seen = Recorder<Int>()
    let token = tripled.subscribe(seen.sink)
    #expect(tripled.node.inputs.count == 1)
    a.accept(2)
    a.accept(3)
    #expect(seen.values == [3, 6, 9])
    // The same reads in the same first-read order: the node was never relinked.
    #expect(tripled.node.relinkCount == 0)
    #expect(tripled.node.inputs.count == 1)
    token.cancel()
  }

  @Test func aBranchNotTakenIsNoLongerFollowed() {
    let flag = BehaviorRelay(true)
    let b = BehaviorRelay("b")
    let c = BehaviorRelay("c")
    let runs = Counter()
    let chosen = Property<String> {
      runs.bump()
      return flag.value ? b.value : c.value
    }
    let seen = Recorder<String>()
    let token = chosen.subscribe(seen.sink)
    runs.reset()
    c.accept("c2")  // not read by the last run: no computation
    #expect(runs.value == 0)
    flag.accept(false)  // now reads c, and no longer b
    #expect(runs.value == 1)
    b.accept("b2")
    #expect(runs.value == 1)
    c.accept("c3")
    #expect(runs.value == 2)
    #expect(seen.values == ["b", "c2", "c3"])
    token.cancel()
  }

  @Test func aComputedDiamondIsGlitchFreeAndComputedOncePerWrite() {
    let a = BehaviorRelay(1)
    let runs = Counter()
    let doubled = Property { a.value * 2 }
    let tripled = Property { a.value * 3 }
    let sum = Property<Int> {
      runs.bump()
      return doubled.value + tripled.value
    }
    let seen = Recorder<Int>()
    let token = sum.subscribe(seen.sink)
    runs.reset()
    a.accept(2)
    a.accept(3)
    // Every value seen is 5 × a: never one input's new value with the other's old one.
    #expect(seen.values == [5, 10, 15])
    #expect(runs.value == 2)
    token.cancel()
  }

  @Test func computedPropertiesMixWithMapAndCombineLatestGlitchFree() {
    let a = BehaviorRelay(1)
    let mapped = a.map { $0 * 10 }
    let combined = Property.combineLatest(a.asProperty(), mapped).map { $0 + $1 }
    let runs = Recorder<Int>()
    let computed = Property<Int> {
      let mismatch = combined.value - mapped.value - a.value
      runs.record(mismatch)
      return mismatch
    }
    let seen = Recorder<Int>()
    let token = computed.subscribe(seen.sink)
    for value in 2...5 { a.accept(value) }
    // Every run saw the three inputs of one state, once per write; the equal results (all 0)
    // notified nobody after the first.
    #expect(runs.values == [0, 0, 0, 0, 0])
    #expect(seen.values == [0])
    token.cancel()
  }

  @Test func anEqualResultDoesNotPropagate() {
    let a = BehaviorRelay(1)
    let parity = Property { a.value % 2 }
    let downstreamRuns = Counter()
    let label = Property<String> {
      downstreamRuns.bump()
      return parity.value == 0 ? "even" : "odd"
    }
    let seen = Recorder<String>()
    let token = label.subscribe(seen.sink)
    downstreamRuns.reset()
    a.accept(3)  // parity stays 1: label is not recomputed
    a.accept(5)
    #expect(downstreamRuns.value == 0)
    a.accept(6)
    #expect(downstreamRuns.value == 1)
    #expect(seen.values == ["odd", "even"])
    token.cancel()
  }

  @Test func aNonEquatableValueNotifiesAfterEveryComputation() {
    struct Box { let value: Int }
    let a = BehaviorRelay(1)
    let boxed = Property { Box(value: a.value % 2) }
    let seen = Recorder<Int>()
    let token = boxed.subscribe { seen.record($0.value) }
    a.accept(3)
    #expect(seen.values == [1, 1])
    token.cancel()
  }

  @Test func writesInABatchAreReadAtOnceAndDeliveredOnce() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(2)
    let product = Property { a.value * b.value }
    let seen = Recorder<Int>()
    let token = product.subscribe(seen.sink)
    batch {
      a.accept(3)
      #expect(product.value == 6)
      b.accept(4)
      #expect(product.value == 12)
    }
    #expect(seen.values == [2, 12])
    token.cancel()
  }

  @Test func aDependencyFoundInsideABatchIsFollowedAfterIt() {
    let flag = BehaviorRelay(false)
    let other = BehaviorRelay(0)
    let value = Property { flag.value ? other.value : -1 }
    let seen = Recorder<Int>()
    let token = value.subscribe(seen.sink)
    batch {
      flag.accept(true)
      other.accept(7)
      #expect(value.value == 7)
    }
    other.accept(8)
    #expect(seen.values == [-1, 7, 8])
    token.cancel()
  }

  @Test func unstableDependenciesAreFollowedExactly() {
    // The shape of the "unstable" workload: how many inputs are read depends on a value.
    let head = BehaviorRelay(1)
    let double = Property { head.value * 2 }
    let inverse = Property { -head.value }
    let runs = Counter()
    let current = Property<Int> {
      runs.bump()
      var result = 0
      for _ in 0..<20 {
        result += head.value % 2 == 0 ? double.value : inverse.value
      }
      return result
    }
    let seen = Recorder<Int>()
    let token = current.subscribe(seen.sink)
    runs.reset()
    for value in 2...5 { head.accept(value) }
    #expect(seen.values == [-20, 80, -60, 160, -100])
    #expect(runs.value == 4)
    token.cancel()
  }

  @Test func readsRepeatedAfterAFlipAgreeWithinTheRun() {
    // A run that left the previous run's order reads the same few nodes again and again: each
    // read after the first is answered from the tracker's last two answers (issue 30). Every
    // read of a node in one run must give the first read's value, and the value must follow
    // every write, delivered at once or at a batch's end.
    let head = BehaviorRelay(0)
    let double = Property { head.value * 2 }
    let inverse = Property { -head.value }
    let torn = Counter()
    let current = Property<Int> {
      let first = head.value
      var result = 0
      for _ in 0..<10 {
        let value = head.value
        let branch = value % 2 != 0 ? double.value : inverse.value
        if value != first || branch != (value % 2 != 0 ? 2 * value : -value) { torn.bump() }
        result += branch
      }
      return result
    }
    func expected(_ value: Int) -> Int { 10 * (value % 2 != 0 ? 2 * value : -value) }
    let seen = Recorder<Int>()
    let token = current.subscribe(seen.sink)
    for value in 1...30 {
      if value % 3 == 0 { batch { head.accept(value) } } else { head.accept(value) }
      #expect(current.value == expected(value), "after writing \(value)")
    }
    #expect(seen.values == (0...30).map(expected))
    #expect(torn.value == 0)
    token.cancel()
  }

  @Test func aNodeReadAgainNotAtItsDeliveredValueIsReadAgainTheSameWay() {
    // Only a node read at its value being delivered is answered again from the tracker's last
    // two answers (issue 30). A run on demand reads the newest writes, and a delivered run
    // inside a batch reads a relay of another domain at what its sinks were given: reading
    // such a node again must give what its first read gave, in the same run.
    let flag = BehaviorRelay(false)
    let other = BehaviorRelay(1)
    let disagreed = Counter()
    @Sendable func sumOfReads() -> Int {
      guard flag.value else { return 5 }
      let first = other.value
      var result = 0
      for _ in 0..<5 {
        let value = other.value
        if value != first { disagreed.bump() }
        result += value + other.value
      }
      return result
    }
    let onDemand = Property { sumOfReads() }
    let delivered = Property { sumOfReads() }
    #expect(onDemand.value == 5)
    let seen = Recorder<Int>()
    let token = delivered.subscribe(seen.sink)
    var readInBatch = 0
    batch {
      flag.accept(true)
      other.accept(7)
      readInBatch = onDemand.value
    }
    #expect(readInBatch == 70)
    #expect(disagreed.value == 0)
    #expect(delivered.value == 70)
    #expect(seen.values.first == 5 && seen.values.last == 70)
    #expect(seen.values.allSatisfy { [5, 10, 70].contains($0) }, "values of one state each")
    other.accept(8)
    #expect(seen.values.last == 80)
    #expect(onDemand.value == 80)
    token.cancel()
  }

  @Test func untrackedReadsAreNotFollowed() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(100)
    let sum = Property { a.value + untracked { b.value } }
    let seen = Recorder<Int>()
    let token = sum.subscribe(seen.sink)
    b.accept(200)
    #expect(seen.values == [101])
    a.accept(2)
    #expect(seen.values == [101, 202])
    token.cancel()
  }

  @Test func aReleasedComputedPropertyStopsComputing() {
    let a = BehaviorRelay(1)
    let runs = Counter()
    let tracker = LifetimeTracker()
    do {
      let computed = Property<Int> {
        runs.bump()
        return a.value + 1
      }
      tracker.track(computed, "computed")
      let token = computed.subscribe { _ in }
      a.accept(2)
      token.cancel()
    }
    #expect(tracker.alive.isEmpty)
    runs.reset()
    a.accept(3)
    #expect(runs.value == 0)
  }

  @Test func aComputedValueIsCachedBetweenChanges() {
    let a = BehaviorRelay(1)
    let runs = Counter()
    let computed = Property<Int> {
      runs.bump()
      return a.value * 2
    }
    #expect(runs.value == 1)  // its first value
    #expect(computed.value == 2)
    #expect(computed.value == 2)
    #expect(runs.value == 1)  // cached between changes
  }

  @Test func aConstantComputationNeverChanges() {
    let constant = Property { 42 }
    let completed = Recorder<Bool>()
    let seen = Recorder<Int>()
    let token = constant.subscribe(seen.sink) { completed.record(true) }
    #expect(seen.values == [42])
    #expect(completed.values == [true])
    token.cancel()
  }

  @Test func concurrentWritersLeaveTheComputedValueConsistent() async {
    let a = BehaviorRelay(0)
    let b = BehaviorRelay(0)
    let difference = Property { a.value - b.value }
    let seen = Recorder<Int>()
    let token = difference.subscribe(seen.sink)
    await withTaskGroup(of: Void.self) { group in
      group.addTask { for value in 1...2_000 { a.accept(value) } }
      group.addTask { for value in 1...2_000 { b.accept(value) } }
    }
    #expect(difference.value == 0)
    #expect(seen.last == 0)
    token.cancel()
  }

  @Test func aRunThatStopsEarlyFollowsOnlyWhatItRead() {
    // The run reads a prefix of what the previous run read, then returns.
    let flag = BehaviorRelay(false)
    let other = BehaviorRelay(1)
    let value = Property<Int> { flag.value ? 0 : other.value }
    let seen = Recorder<Int>()
    let token = value.subscribe(seen.sink)
    flag.accept(true)  // reads only flag
    other.accept(5)  // not followed now
    flag.accept(false)  // reads flag, then other again
    other.accept(2)
    #expect(seen.values == [1, 0, 5, 2])
    token.cancel()
  }
}
