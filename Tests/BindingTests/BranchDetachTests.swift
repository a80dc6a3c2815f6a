import InvalidatingBinding
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

/// Issue 30, point 2: the branch a computed property's flip lets go is parked (see
/// Engine+Parking.swift): it stays attached, so the flip back finds it linked, but writes do
/// not compute it (rule 13), and it leaves the graph once its reader's next run does not read
/// it, or once its reader leaves.
@Suite("A branch let go by a flip: parked, lazy, and detached once unread")
struct BranchDetachTests {
  /// A computed property that reads `double` on odd values of `source`, `inverse` on even ones,
  /// with the runs of each branch counted.
  struct Flipping {
    let double: Property<Int>
    let inverse: Property<Int>
    let current: Property<Int>
    let doubleRuns = Counter()
    let inverseRuns = Counter()

    init(over source: BehaviorRelay<Int>) {
      let doubleRuns = doubleRuns
      let inverseRuns = inverseRuns
      let double = Property {
        doubleRuns.bump()
        return source.value * 2
      }
      let inverse = Property {
        inverseRuns.bump()
        return -source.value
      }
      self.double = double
      self.inverse = inverse
      current = Property { source.value % 2 != 0 ? double.value : inverse.value }
    }

    /// Whether `property`'s node is attached but parked: not followed by writes.
    static func isParked(_ property: Property<Int>) -> Bool {
      property.node.isAttached && property.node.isParked
    }
  }

  @Test("Parked as a flip lets it go, computed once by the flip back, in a batch or not")
  func parkedAndTakenBack() {
    let head = BehaviorRelay(0)
    let graph = Flipping(over: head)
    let seen = Recorder<Int>()
    let token = graph.current.subscribe(seen.sink)
    #expect(graph.inverse.node.isAttached && !graph.double.node.isAttached)
    head.accept(1)
    #expect(Flipping.isParked(graph.inverse) && !graph.double.node.isParked)
    let inverseRuns = graph.inverseRuns.value
    let doubleRuns = graph.doubleRuns.value
    batch { head.accept(2) }
    // The flip back computes the parked branch once, from the write. `double`, still read when
    // the write came, is computed by it, then let go and parked in turn.
    #expect(graph.inverseRuns.value == inverseRuns + 1)
    #expect(graph.doubleRuns.value == doubleRuns + 1)
    #expect(Flipping.isParked(graph.double) && !graph.inverse.node.isParked)
    head.accept(3)
    // Reached by the write while parked, `double` is computed once, by the flip back.
    #expect(graph.doubleRuns.value == doubleRuns + 2)
    #expect(graph.inverseRuns.value == inverseRuns + 2)
    #expect(Flipping.isParked(graph.inverse))
    #expect(seen.values == [0, 2, -2, 6])
    token.cancel()
    // The reader's detach takes the branch it parked with it.
    #expect(!graph.current.node.isAttached && !graph.double.node.isAttached)
    #expect(!graph.inverse.node.isAttached)
    #expect(graph.inverse.value == -3)  // computed on demand
  }

  @Test("Writes that reach a parked branch no run reads do not compute it; reads compute it")
  func reachedAndUnreadIsNotComputed() {
    let head = BehaviorRelay(0)
    let graph = Flipping(over: head)
    let seen = Recorder<Int>()
    let token = graph.current.subscribe(seen.sink)
    head.accept(1)
    #expect(Flipping.isParked(graph.inverse))
    let inverseRuns = graph.inverseRuns.value
    head.accept(3)  // odd again: `inverse` is reached, not read
    head.accept(5)
    #expect(graph.inverseRuns.value == inverseRuns)
    #expect(Flipping.isParked(graph.inverse) && graph.inverse.node.isUnfollowedLocked)
    // A value the writes left behind: a read computes it (not cached in the node).
    #expect(graph.inverse.value == -5)
    head.accept(4)  // the flip back computes it once, from the write
    #expect(graph.inverseRuns.value == inverseRuns + 2)
    #expect(seen.values == [0, 2, 6, 10, -4])
    #expect(!graph.inverse.node.isParked && Flipping.isParked(graph.double))
    _ = token
  }

  @Test("A parked branch subscribed to is followed again, between events or inside one")
  func subscribedWhileParked() {
    let head = BehaviorRelay(0)
    let graph = Flipping(over: head)
    let token = graph.current.subscribe { _ in }
    head.accept(1)
    #expect(Flipping.isParked(graph.inverse))
    // Between events: the subscriber starts from its value, and hears of every write.
    let between = Recorder<Int>()
    let first = graph.inverse.subscribe(between.sink)
    #expect(!graph.inverse.node.isParked && !graph.inverse.node.isUnfollowedLocked)
    head.accept(3)
    head.accept(5)
    #expect(between.values == [-1, -3, -5])
    first.cancel()
    head.accept(6)  // flips back to `inverse`, parking `double`
    head.accept(7)  // flips to `double`, parking `inverse`
    #expect(Flipping.isParked(graph.inverse))
    // Inside the event whose write reached it, not computed yet: a sink of `current` runs
    // after the delivery, and subscribes to the parked branch.
    let inside = Recorder<Int>()
    let later = Locked<SubscriptionToken?>(nil)
    let subscriber = graph.current.subscribe { value in
      if value == 18 {
        later.withLock { $0 = graph.inverse.subscribe(inside.sink) }
      }
    }
    head.accept(9)
    #expect(inside.values == [-9])
    head.accept(11)
    #expect(inside.values == [-9, -11])
    #expect(graph.inverse.node.isAttached && !graph.inverse.node.isParked)
    _ = (token, subscriber, later)
  }

  @Test("A reader that relinks away from both branches detaches the one it parked")
  func readerMovesAway() {
    let head = BehaviorRelay(1)
    let useBranches = BehaviorRelay(true)
    let double = Property { head.value * 2 }
    let inverse = Property { -head.value }
    let current = Property {
      guard useBranches.value else { return head.value }
      return head.value % 2 != 0 ? double.value : inverse.value
    }
    let seen = Recorder<Int>()
    let token = current.subscribe(seen.sink)
    head.accept(2)
    #expect(double.node.isAttached && double.node.isParked)
    useBranches.accept(false)
    // `double`, parked by the previous run and not read by this one, leaves; `inverse`, let go
    // now and computed from `head`, which the run still reads, is parked in its place.
    #expect(!double.node.isAttached && double.node.isSuspended)
    #expect(inverse.node.isAttached && inverse.node.isParked)
    head.accept(3)
    useBranches.accept(true)  // reads `double`: `inverse`, parked and not read, leaves
    #expect(!inverse.node.isAttached && inverse.node.isSuspended)
    #expect(inverse.value == -3)
    #expect(seen.values == [2, -2, 2, 3, 6])
    _ = token
  }

  @Test("flatMapLatest switched back to a parked inner a write reached reads its new value")
  func flatMapLatestBackToAParkedInner() {
    // The reference model's seed 1592592590, shrunk: the inner let go is parked (its source is
    // the selector the operator still reads); the write that switches back reaches it first.
    let source = BehaviorRelay(6)
    let copy = Property { source.value }
    let selected = source.asProperty().flatMapLatest { value in
      value % 3 == 0 ? copy : source.asProperty()
    }
    let seen = Recorder<Int>()
    let token = selected.subscribe(seen.sink)
    source.accept(7)
    #expect(copy.node.isAttached && copy.node.isParked)
    source.accept(6)
    #expect(seen.values == [6, 7, 6])
    #expect(selected.value == 6)
    _ = token
  }

  @Test("Let go in a sink's write, a cascade queued behind the event, it is parked too")
  func detachedAfterASinksWrite() {
    let head = BehaviorRelay(0)
    let echo = BehaviorRelay(0)
    let graph = Flipping(over: echo)
    let seen = Recorder<Int>()
    let token = graph.current.subscribe(seen.sink)
    let forward = head.subscribe { echo.accept($0) }
    head.accept(1)
    // The cascade is delivered after the event, as the thread's outermost delivery: parked
    // there as in any other.
    #expect(graph.double.node.isAttached && Flipping.isParked(graph.inverse))
    head.accept(2)
    #expect(graph.inverse.node.isAttached && Flipping.isParked(graph.double))
    head.accept(4)  // reaches `double`, which no run reads: not computed
    #expect(Flipping.isParked(graph.double) && graph.double.node.isRefreshing)
    #expect(seen.values == [0, 2, -2, -4])
    token.cancel()
    #expect(!graph.double.node.isAttached && !graph.inverse.node.isAttached)
    #expect(graph.double.value == 8)
    _ = (token, forward)
  }
}
