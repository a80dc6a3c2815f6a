import Foundation
import Invalidating
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

/// Rule 9: a released graph frees all its memory, domains and locks included (issue 13,
/// defect 3). A domain that was alone in it is kept for the thread's next relays instead
/// (`SpareDomains`, at most 32 a thread): the checks free the thread's spares first. Deriving from several relays merges their domains; once the relays and what was
/// derived from them are released, every domain they used, and its lock, must be freed, also
/// when one of the relays lives on.
///
/// They used to stay: the surviving domain listed the absorbed one and the absorbed one
/// forwarded to the survivor, a cycle. Two fresh relays and a `combineLatest`, released, 10^6
/// times: RSS 18 → 461 MB (about 408 B in 7 allocations per iteration).
@Suite("Sustained load: merged domains are freed with their graph", .serialized)
struct MergedDomainLifetimeTests {
  /// The domains a graph used, watched weakly. (A domain's lock is freed by its `deinit`.)
  struct Watched {
    let tracker = LifetimeTracker()

    /// The watched domains still alive once the thread's spares are freed.
    var alive: [String] {
      Domain.freeSpares()
      return tracker.alive
    }

    func watch(_ property: Property<some Any>, _ name: String) {
      tracker.track(property.node.home, "\(name)'s domain")
    }
  }

  @Test("A relay on its own, released: its domain and lock are freed (the control)")
  func oneRelay() {
    let watched = Watched()
    do {
      let relay = BehaviorRelay(1)
      let seen = Recorder<Int>()
      let token = relay.asProperty().map { $0 + 1 }.subscribe(seen.sink)
      relay.accept(2)
      #expect(seen.values == [2, 3])
      watched.watch(relay.asProperty(), "relay")
      token.cancel()
    }
    #expect(watched.alive == [])
  }

  @Test("Two fresh relays and a combineLatest, released: both domains and their locks are freed")
  func twoFreshRelays() {
    let watched = Watched()
    do {
      let first = BehaviorRelay(1)
      let second = BehaviorRelay(2)
      let both = Property.combineLatest(first.asProperty(), second.asProperty())
      let seen = Recorder<Int>()
      let token = both.subscribe { seen.record($0.0 + $0.1) }
      first.accept(10)
      second.accept(20)
      #expect(seen.values == [3, 12, 30])
      watched.watch(first.asProperty(), "first")
      watched.watch(second.asProperty(), "second")
      watched.watch(both, "combined")
      token.cancel()
    }
    print("sustained: two fresh relays + combineLatest, released: alive \(watched.alive)")
    #expect(watched.alive == [])
  }

  @Test("A fresh relay combined with a long-lived one, released: the fresh domain is freed")
  func oneLongLivedRelay() {
    let longLived = BehaviorRelay(0)
    let watched = Watched()
    for round in 1...3 {
      let fresh = BehaviorRelay(round)
      let both = Property.combineLatest(longLived.asProperty(), fresh.asProperty())
      let seen = Recorder<Int>()
      let token = both.subscribe { seen.record($0.0 + $0.1) }
      longLived.accept(round * 10)
      #expect(seen.values == [(round - 1) * 10 + round, round * 11])
      watched.watch(fresh.asProperty(), "fresh relay \(round)")
      token.cancel()
    }
    // The long-lived relay's domain (the survivor) lives on, and must not hold the others.
    #expect(longLived.value == 30)
    print("sustained: fresh relays combined with a long-lived one: alive \(watched.alive)")
    #expect(watched.alive == [])
  }

  @Test("flatMapLatest switching between fresh relays, released: every domain is freed")
  func flatMapLatest() {
    let watched = Watched()
    do {
      let selector = BehaviorRelay(0)
      let inners = [BehaviorRelay(10), BehaviorRelay(20)]
      let followed = selector.asProperty().flatMapLatest { inners[$0].asProperty() }
      let seen = Recorder<Int>()
      let token = followed.subscribe(seen.sink)
      selector.accept(1)
      inners[1].accept(21)
      selector.accept(0)
      #expect(seen.values == [10, 20, 21, 10])
      watched.watch(selector.asProperty(), "selector")
      watched.watch(inners[0].asProperty(), "first inner")
      watched.watch(inners[1].asProperty(), "second inner")
      watched.watch(followed, "flatMapLatest")
      token.cancel()
    }
    print("sustained: flatMapLatest over fresh relays, released: alive \(watched.alive)")
    #expect(watched.alive == [])
  }

  @Test("Resident memory stays flat over many merged graphs created and released")
  func residentMemoryOverManyGraphs() async {
    // Measured in a process of its own: the suites running beside this one in the test
    // process allocate too, and moved its resident size by megabytes.
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let iterations = Sustained.isUnderThreadSanitizer ? 20_000 : 50_000
      let longLived = BehaviorRelay(0)
      func shapes(_ count: Int) {
        for index in 0..<count {
          let first = BehaviorRelay(index)
          let second = BehaviorRelay(index)
          let pair = Property.combineLatest(first.asProperty(), second.asProperty())
          let withLongLived = Property.combineLatest(longLived.asProperty(), first.asProperty())
          if pair.value.0 != withLongLived.value.1 { exit(2) }
        }
      }
      shapes(iterations / 10)  // warms the allocator up
      let before = Sustained.residentBytes()
      shapes(iterations)
      let growth = Sustained.residentBytes() - before
      let perIteration = growth / iterations
      print(
        """
        \(iterations) x (two fresh relays + combineLatest, and one with a long-lived relay), \
        released: RSS +\(growth / 1024) KiB, \(perIteration) B per iteration
        """)
      // Each iteration used to leave about 435 B; a freed graph leaves nothing but allocator
      // slack, which the warm-up absorbed.
      if perIteration >= 200 { exit(1) }
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    print("sustained: \(output.split(separator: "\n").last ?? "no output")")
  }
}
