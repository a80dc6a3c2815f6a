import Foundation
import Invalidating
import InvalidatingTestSupport
import Synchronization
import Testing

/// Rule 11 while another thread delivers: `subscribe` calls the sink with the current value
/// before it returns, so `var v = 0; let t = p.subscribe { v = $0 }; use(v)` reads the value,
/// never the placeholder. Before the fix, under a writer that never paused, 99% of calls
/// returned first and the value came later from the delivering thread.
///
/// Every first value is at least as new as a read the subscriber made just before (it never
/// starts from an older value), later values never go back, and the sink never runs twice at
/// once, although its first call is the subscriber's and the next ones the drainer's.
@Suite("Sustained load: a subscriber gets its first value before subscribe returns")
struct FirstValueTests {
  static var subscriptions: Int { Sustained.isUnderThreadSanitizer ? 300 : 3_000 }

  enum Shape: String, CaseIterable, CustomTestStringConvertible {
    case relay, map, computed
    var testDescription: String { rawValue }
  }

  static func property(_ shape: Shape, of relay: BehaviorRelay<Int>) -> Property<Int> {
    switch shape {
    case .relay: relay.asProperty()
    case .map: relay.asProperty().map { $0 }
    case .computed: Property { relay.value }
    }
  }

  /// Writes 1, 2, 3, ... to `relay`, never pausing, until `stop` is set.
  static func write(_ relay: BehaviorRelay<Int>, until stop: borrowing Atomic<Bool>) {
    var value = 1
    while !stop.load(ordering: .relaxed) {
      relay.accept(value)
      value += 1
    }
  }

  @Test("Under a writer that never pauses", arguments: Shape.allCases)
  func firstValueBeforeReturning(shape: Shape) {
    let relay = BehaviorRelay(0)
    let property = Self.property(shape, of: relay)
    // A slow sink keeps the writer delivering most of the time.
    let busy = property.subscribe { _ in
      var spin = 0
      for step in 0..<200 { spin &+= step }
      _ = spin
    }
    let stop = Atomic<Bool>(false)
    let late = Atomic<Int>(0)
    let older = Atomic<Int>(0)
    let backwards = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let finished = runConcurrently(threads: 2, timeout: 120 * Sustained.slowdown) { thread in
      if thread == 0 {
        Self.write(relay, until: stop)
        return
      }
      for _ in 0..<Self.subscriptions {
        let before = property.value
        let probe = Probe(isInOrder: { $0 <= $1 })
        let first = Mutex<Int?>(nil)
        let token = property.subscribe { value in
          probe.enter(value) { first.withLock { $0 = $0 ?? value } }
        }
        if let value = first.withLock({ $0 }) {
          if value < before { older.add(1, ordering: .relaxed) }
        } else {
          late.add(1, ordering: .relaxed)
        }
        token.cancel()
        backwards.add(probe.outOfOrder, ordering: .relaxed)
        overlaps.add(probe.overlaps, ordering: .relaxed)
      }
      stop.store(true, ordering: .relaxed)
    }
    #expect(finished)
    let total = Self.subscriptions
    print(
      "sustained: first value (\(shape)): \(late.load(ordering: .relaxed)) of \(total) "
        + "subscribe calls returned before it, \(older.load(ordering: .relaxed)) older")
    #expect(late.load(ordering: .relaxed) == 0)
    #expect(older.load(ordering: .relaxed) == 0)
    #expect(backwards.load(ordering: .relaxed) == 0)
    #expect(overlaps.load(ordering: .relaxed) == 0)
    _ = busy
  }

  @Test("A computed property made under writers starts its subscriber from one state")
  func madeUnderWritersStartsFromOneState() {
    // `made` reads `a` itself and through `both`, a suspended computed property over `pair`
    // (observed). Made while two threads keep writing `a` and `b`, its first run can read two
    // values of `a`: it is not settled, so its attachment computes it again. Before the fix, a
    // subscriber that could not compute a first value between writes was given that first
    // run's value, as if delivered: the fuzz's torn sink values (issue 26). Of 3,000
    // subscriptions, 75 to 148 started torn in three runs before, none after.
    let a = BehaviorRelay(0)
    let b = BehaviorRelay(0)
    let pair = Property { [a.value, b.value] }
    let both = Property { b.value % 2 == 0 ? [pair.value[0], a.value] : [pair.value[0]] }
    let keepPair = pair.subscribe { _ in }
    let stop = Atomic<Bool>(false)
    let torn = Atomic<Int>(0)
    let late = Atomic<Int>(0)
    let finished = runConcurrently(threads: 3, timeout: 120 * Sustained.slowdown) { thread in
      guard thread == 2 else {
        Self.write(thread == 0 ? a : b, until: stop)
        return
      }
      for _ in 0..<Self.subscriptions {
        let made = Property { [a.value] + both.value }
        let first = Mutex<[Int]?>(nil)
        let token = made.subscribe { values in first.withLock { $0 = $0 ?? values } }
        if let values = first.withLock({ $0 }) {
          if Set(values).count > 1 { torn.add(1, ordering: .relaxed) }
        } else {
          late.add(1, ordering: .relaxed)
        }
        token.cancel()
      }
      stop.store(true, ordering: .relaxed)
    }
    #expect(finished)
    print(
      "sustained: first value of a property made under writers: "
        + "\(torn.load(ordering: .relaxed)) of \(Self.subscriptions) torn")
    #expect(torn.load(ordering: .relaxed) == 0)
    #expect(late.load(ordering: .relaxed) == 0)
    _ = keepPair
  }
}
