import Foundation
import InvalidatingBinding
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

/// Rule 5 (issue 26, point 4): sources that a node read together share a domain (one lock, one
/// queue) only while such a node lives. Once what joined them is released or relinked away,
/// they are domains of their own again.
///
/// They used to stay merged for good: `Domain.union` never undid a merge, so two relays once
/// read by one computed property, or one view pass, shared a lock and a delivery queue for the
/// rest of the program.
@Suite("Domains follow the live graph")
struct DomainSplitTests {
  /// Whether the two properties share a domain now.
  static func joined<A, B>(_ first: Property<A>, _ second: Property<B>) -> Bool {
    first.node.rootIdentity == second.node.rootIdentity
  }

  @Test("A computed property over two relays joins them; released, it splits them")
  func releasedComputedPropertySplits() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(2)
    #expect(!Self.joined(a.asProperty(), b.asProperty()))
    var sum: Property<Int>? = Property { a.value + b.value }
    let seen = Recorder<Int>()
    var token = sum?.subscribe(seen.sink)
    #expect(Self.joined(a.asProperty(), b.asProperty()))
    Engine.checkJoinCounts(around: a.asProperty().node)
    b.accept(3)
    #expect(seen.values == [3, 4])
    token?.cancel()
    token = nil
    sum = nil
    #expect(!Self.joined(a.asProperty(), b.asProperty()))
    Engine.checkJoinCounts(around: a.asProperty().node)
    Engine.checkJoinCounts(around: b.asProperty().node)
    // Each still works on its own, and they join again when something reads both.
    let onB = Recorder<Int>()
    let bToken = b.subscribe(onB.sink)
    b.accept(4)
    #expect(onB.values == [3, 4])
    let again = Property { a.value * b.value }
    #expect(again.value == 4)
    #expect(Self.joined(a.asProperty(), b.asProperty()))
    a.accept(5)
    #expect(again.value == 20)
    _ = bToken
  }

  @Test("A computed property whose subscription ended but which is still held keeps them joined")
  func heldSuspendedComputedPropertyKeepsThemJoined() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(2)
    var sum: Property<Int>? = Property { a.value + b.value }
    sum?.subscribe { _ in }.cancel()
    // Suspended, not released: reads still compute it from both, in one domain.
    #expect(Self.joined(a.asProperty(), b.asProperty()))
    a.accept(10)
    #expect(sum?.value == 12)
    #expect(Self.joined(a.asProperty(), b.asProperty()))
    sum = nil
    #expect(!Self.joined(a.asProperty(), b.asProperty()))
  }

  @Test("A combineLatest released splits its relays; one made over a side later does not pin it")
  func aNodeOverOneSideIsHomedThereAndDoesNotPinTheOther() {
    let a = BehaviorRelay(1)
    let a2 = BehaviorRelay(2)
    let a3 = BehaviorRelay(3)
    let b1 = BehaviorRelay(10)
    let b2 = BehaviorRelay(20)
    // The A side the larger, so that the B side is merged into it, not the other way round.
    let sideA = Property { a.value + a2.value + a3.value }
    let sideB = Property.combineLatest(b1.asProperty(), b2.asProperty())
    var across: Property<(Int, Int)>? = Property.combineLatest(a.asProperty(), b1.asProperty())
    #expect(Self.joined(a.asProperty(), b2.asProperty()))
    // Made after the two sides were merged, over the B side only: homed where the B side
    // meets, below the merge with the A side, which it therefore does not hold.
    let laterB = Property.combineLatest(b2.asProperty(), b1.asProperty()).map { $0.0 - $0.1 }
    let seen = Recorder<Int>()
    let token = laterB.subscribe(seen.sink)
    Engine.checkJoinCounts(around: a.asProperty().node)
    across = nil
    #expect(!Self.joined(a.asProperty(), b1.asProperty()))
    #expect(Self.joined(b1.asProperty(), b2.asProperty()))
    b2.accept(25)
    #expect(seen.values == [10, 15])
    #expect(sideB.value == (10, 25))
    #expect(sideA.value == 6)
    Engine.checkJoinCounts(around: b1.asProperty().node)
    _ = token
    _ = across
  }

  @Test("A computed property that stops reading a relay lets it go")
  func aRelinkThatStopsReadingSplits() {
    let flag = BehaviorRelay(true)
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(2)
    let shown = Property { flag.value ? a.value + b.value : a.value }
    let seen = Recorder<Int>()
    let token = shown.subscribe(seen.sink)
    #expect(Self.joined(a.asProperty(), b.asProperty()))
    flag.accept(false)
    #expect(!Self.joined(a.asProperty(), b.asProperty()))
    #expect(Self.joined(a.asProperty(), flag.asProperty()))
    b.accept(100)  // no longer followed
    a.accept(3)
    #expect(seen.values == [3, 1, 3])
    flag.accept(true)  // read again: joined again
    #expect(Self.joined(a.asProperty(), b.asProperty()))
    #expect(seen.values == [3, 1, 3, 103])
    Engine.checkJoinCounts(around: a.asProperty().node)
    _ = token
  }

  @Test(
    "Joins of many sources, of merged ones, and a release inside a delivery split as one of two")
  func joinsTheStackListDoesNotHoldSplitToo() {
    // Six sources of their own: more than a join borrows from its list on the stack.
    let relays = (0..<6).map { BehaviorRelay($0) }
    var wide: Property<Int>? = Property { relays.reduce(0) { $0 + $1.value } }
    let wideSeen = Recorder<Int>()
    var wideToken = wide?.subscribe(wideSeen.sink)
    #expect(Self.joined(relays[0].asProperty(), relays[5].asProperty()))
    relays[5].accept(10)
    #expect(wideSeen.values == [15, 20])
    // Over one of them, merged already, and a source of its own: the join looks up roots.
    let other = BehaviorRelay(100)
    var across: Property<Int>? = Property { relays[2].value + other.value }
    let acrossToken = across?.subscribe { _ in }
    #expect(Self.joined(other.asProperty(), relays[0].asProperty()))
    Engine.checkJoinCounts(around: other.asProperty().node)
    wideToken?.cancel()
    wideToken = nil
    wide = nil
    // `across` still joins relays[2] and `other`; the rest are on their own again.
    #expect(Self.joined(other.asProperty(), relays[2].asProperty()))
    #expect(!Self.joined(relays[0].asProperty(), relays[5].asProperty()))
    #expect(!Self.joined(relays[0].asProperty(), other.asProperty()))
    Engine.checkJoinCounts(around: other.asProperty().node)
    // Released from a sink of one of its own sources: the root is not quiet then, so the
    // split waits for the delivery's end.
    let holder = Holder(acrossToken)
    let trigger = other.subscribe { value in
      guard value == 101 else { return }
      holder.token?.cancel()
      holder.token = nil
    }
    across = nil
    other.accept(101)
    #expect(!Self.joined(other.asProperty(), relays[2].asProperty()))
    Engine.checkJoinCounts(around: other.asProperty().node)
    Engine.checkJoinCounts(around: relays[2].asProperty().node)
    trigger.cancel()
  }

  @Test("A flatMapLatest that switches away from an inner property lets its domain go")
  func aSwitchAwaySplits() {
    let useSecond = BehaviorRelay(false)
    let first = BehaviorRelay(1)
    let second = BehaviorRelay(2)
    let inners = [first.asProperty(), second.asProperty()]
    let selected = useSecond.asProperty().flatMapLatest { inners[$0 ? 1 : 0] }
    let seen = Recorder<Int>()
    let token = selected.subscribe(seen.sink)
    #expect(Self.joined(useSecond.asProperty(), first.asProperty()))
    #expect(!Self.joined(useSecond.asProperty(), second.asProperty()))
    useSecond.accept(true)
    #expect(Self.joined(useSecond.asProperty(), second.asProperty()))
    #expect(!Self.joined(useSecond.asProperty(), first.asProperty()))
    first.accept(10)
    second.accept(20)
    #expect(seen.values == [1, 2, 20])
    Engine.checkJoinCounts(around: useSecond.asProperty().node)
    _ = token
  }

  @Test("A split inside a batch waits for the batch, and what it wrote is delivered")
  func aReleaseInsideABatchSplitsAfterIt() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(2)
    let onA = Recorder<Int>()
    let onB = Recorder<Int>()
    let tokens = [a.subscribe(onA.sink), b.subscribe(onB.sink)]
    var sum: Property<Int>? = Property { a.value + b.value }
    let onSum = Recorder<Int>()
    var sumToken = sum?.subscribe(onSum.sink)
    batch {
      a.accept(10)
      b.accept(20)
      sumToken = nil
      sum = nil
      // The batch's writes are not delivered yet: the domains cannot be told apart.
      #expect(Self.joined(a.asProperty(), b.asProperty()))
    }
    #expect(!Self.joined(a.asProperty(), b.asProperty()))
    #expect(onA.values == [1, 10])
    #expect(onB.values == [2, 20])
    #expect(onSum.values == [3])
    Engine.checkJoinCounts(around: a.asProperty().node)
    _ = tokens
    _ = sumToken
  }

  @Test("Three relays chained by two nodes: releasing one node splits only what it joined")
  func releasingOneOfTwoJoinsSplitsOnlyItsEdge() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(2)
    let c = BehaviorRelay(3)
    var ab: Property<Int>? = Property { a.value + b.value }
    let bc = Property { b.value + c.value }
    #expect(Self.joined(a.asProperty(), c.asProperty()))
    ab = nil
    #expect(!Self.joined(a.asProperty(), b.asProperty()))
    #expect(Self.joined(b.asProperty(), c.asProperty()))
    c.accept(30)
    #expect(bc.value == 32)
    Engine.checkJoinCounts(around: b.asProperty().node)
    _ = ab
  }

  #if DEBUG
    @Test("A domain moved to another root while a join locks its roots leaves no edge behind")
    func joinWhoseDomainMovedBetweenRootsLeavesNoEdge() {
      // `ab` and `bf` join a, b and f; `ce` joins c and e. A computed property over a and c
      // looks up their roots (a's and c's trees). Before it locks them, another thread
      // releases `ab` (a is cut off its tree) and makes `ac2` over a and c (a joins c's
      // tree). The join found both roots still roots, and a and c reaching one of them, so
      // it merged b's and f's tree into c's, with no node's links across that edge: no
      // split would ever cut it, and b stayed coupled to c after everything over a and c
      // was gone (`MissedSplits`, about one run in four of `SplitDomainTests`' churn).
      let (a, b, f, c, e) = (
        BehaviorRelay(1), BehaviorRelay(2), BehaviorRelay(3), BehaviorRelay(4), BehaviorRelay(5)
      )
      nonisolated(unsafe) var ab: Property<Int>? = Property { a.value + b.value }
      let bf = Property { b.value + f.value }
      let ce = Property { c.value + e.value }
      nonisolated(unsafe) var ac2: Property<Int>?
      Domain.afterNextRootLookup {
        let done = DispatchSemaphore(value: 0)
        Thread {
          ab = nil
          ac2 = Property { a.value &* c.value }
          done.signal()
        }.start()
        done.wait()
      }
      var ac: Property<Int>? = Property { a.value - c.value }
      #expect(ab == nil)
      #expect(ac?.value == -3)
      #expect(ac2?.value == 4)
      #expect(Self.joined(a.asProperty(), c.asProperty()))
      Engine.checkJoinCounts(around: c.asProperty().node)
      ac = nil
      ac2 = nil
      // Only `bf` and `ce` are left: b's tree and c's are apart.
      #expect(!Self.joined(b.asProperty(), c.asProperty()))
      #expect(!Self.joined(a.asProperty(), c.asProperty()))
      #expect(bf.value == 5 && ce.value == 9)
      _ = (ac, ac2)
    }
  #endif
}

/// A token a sink lets go of. Safe as `@unchecked Sendable`: the test touches it on its own
/// thread only (deliveries run on the writing thread).
private final class Holder: @unchecked Sendable {
  var token: SubscriptionToken?
  init(_ token: SubscriptionToken?) { self.token = token }
}
