import InvalidatingBinding
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

/// Issue 30, point 2: a flip that swaps one input for another of the reader's own domain is
/// relinked in place (`Engine.swapInput`); every other shape, and a swap whose new input ranks
/// at or above its reader, is relinked the general way. Each test states what a reader of
/// plain values would see, so that a shortcut taken where it does not hold fails it.
@Suite("A flip's relink: one input swapped in place, any other shape the general way")
struct BranchSwapTests {
  @Test("A flip to a branch ranked above its reader raises the reader: one run a write, no glitch")
  func flipToADeeperBranch() {
    let head = BehaviorRelay(0)
    let shallow = Property { head.value + 1 }
    // Three computed properties deep: it ranks above the reader, which begins over `shallow`.
    let first = Property { head.value * 10 }
    let second = Property { first.value + 1 }
    let deep = Property { second.value + 1 }
    let readerRuns = Counter()
    let reader = Property<Int> {
      readerRuns.bump()
      // Read after the branch, so that the run sees the head and the branch of one write.
      let branch = head.value % 2 != 0 ? deep.value : shallow.value
      return branch * 1000 + head.value
    }
    let seen = Recorder<Int>()
    let token = reader.subscribe(seen.sink)
    for value in 1...6 { head.accept(value) }
    // Odd values read `deep` (10 × value + 2), even ones `shallow` (value + 1).
    let expected = [0, 1, 2, 3, 4, 5, 6].map { value in
      (value % 2 != 0 ? value * 10 + 2 : value + 1) * 1000 + value
    }
    #expect(seen.values == expected)
    // One run for the subscription, one a write: a reader left below the branch would run
    // again, or see a value of the branch from before the write.
    #expect(readerRuns.value == 7)
    token.cancel()
  }

  @Test("A flip to a branch of another domain joins it: that domain's writes reach the reader")
  func flipToAnotherDomain() {
    let head = BehaviorRelay(0)
    let other = BehaviorRelay(100)
    let near = Property { head.value * 2 }
    let far = Property { other.value + 1 }
    let reader = Property { head.value % 2 != 0 ? far.value : near.value }
    // Observed of its own, `far` is attached when the flip reads it: only its domain tells the
    // swap from one of the reader's own.
    let farToken = far.subscribe { _ in }
    let seen = Recorder<Int>()
    let token = reader.subscribe(seen.sink)
    head.accept(1)  // to `far`, of `other`'s domain
    #expect(reader.node.rootIdentity == far.node.rootIdentity)
    other.accept(200)
    head.accept(2)  // back to `near`
    other.accept(300)  // not read any more: nothing delivered
    head.accept(3)
    #expect(seen.values == [0, 101, 201, 4, 301])
    token.cancel()
    farToken.cancel()
  }

  @Test("A run that swaps two inputs at once, or reads fewer or more, is linked to what it read")
  func moreThanOneInputSwapped() {
    let source = BehaviorRelay(0)
    let plusOne = Property { source.value + 1 }
    let twice = Property { source.value * 2 }
    let thrice = Property { source.value * 3 }
    let fourTimes = Property { source.value * 4 }
    // [source, plusOne, twice], [source, thrice, fourTimes] (two places swapped), or [source]:
    // one domain, so only the shape keeps the relink from swapping in place.
    let reader = Property<Int> {
      switch source.value % 3 {
      case 0: return plusOne.value * 100 + twice.value
      case 1: return thrice.value * 100 + fourTimes.value
      default: return -1
      }
    }
    let seen = Recorder<Int>()
    let token = reader.subscribe(seen.sink)
    for value in 1...7 { source.accept(value) }
    let expected = (0...7).map { value in
      switch value % 3 {
      case 0: return (value + 1) * 100 + value * 2
      case 1: return value * 3 * 100 + value * 4
      default: return -1
      }
    }
    #expect(seen.values == expected)
    // Written last 7: the reader is linked to what that run read, and to nothing else.
    let inputs = Set(reader.node.inputs.map(ObjectIdentifier.init))
    #expect(inputs == Set([source.node, thrice.node, fourTimes.node].map(ObjectIdentifier.init)))
    #expect(plusOne.node.downstream.isEmpty && twice.node.downstream.isEmpty)
    token.cancel()
  }

  @Test("A branch swapped out that nothing may read again leaves the graph, not parked")
  func swappedOperatorBranchIsDetached() {
    let head = BehaviorRelay(0)
    let shared = Property { head.value + 1 }
    // A branch made inside each run, an operator's node: the run's read holds the only handle
    // to it, so the flip that lets it go leaves nothing to read it again.
    let reader = Property<Int> {
      guard head.value % 2 != 0 else { return shared.value }
      return shared.map { $0 * 3 }.value
    }
    let seen = Recorder<Int>()
    let token = reader.subscribe(seen.sink)
    for value in 1...4 { head.accept(value) }
    #expect(seen.values == [1, 6, 3, 12, 5])
    // Written last 4, even: the reader reads `shared` itself, and each mapped branch is gone
    // from `shared`'s downstream nodes.
    #expect(shared.node.downstream.count == 1 && shared.node.downstream[0] === reader.node)
    #expect(!shared.node.isParked)
    token.cancel()
  }
}
