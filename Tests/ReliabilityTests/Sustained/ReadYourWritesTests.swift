import Foundation
import Invalidating
import InvalidatingTestSupport
import Synchronization
import Testing

/// Rules 1 and 13 with several readers: a thread that writes a relay and then reads a property
/// computed from it reads its own write (or a later one), however many other threads write
/// and read the same graph meanwhile.
///
/// Four threads each write their own relay, then read a property over all four: the element
/// of their own relay must be what they just wrote. Before the fix about one read in 10,000
/// returned an older value: a pull that began at an older write stamp and finished later
/// overwrote the newer value another thread had cached (`DerivedNode.pullOneSpecialized`).
@Suite("Sustained load: every reader reads its own writes")
struct ReadYourWritesTests {
  static let threads = 4
  static var rounds: Int { Sustained.isUnderThreadSanitizer ? 1_500 : 6_000 }

  /// The shapes of property read: computed, map and combineLatest, observed or not.
  enum Shape: String, CaseIterable, CustomTestStringConvertible {
    case computed, computedObserved, combineLatest, combineLatestObserved, mapOfComputed
    var testDescription: String { rawValue }
    var isObserved: Bool { self == .computedObserved || self == .combineLatestObserved }
  }

  static func property(_ shape: Shape, over relays: [BehaviorRelay<Int>]) -> Property<[Int]> {
    switch shape {
    case .computed, .computedObserved:
      return Property { relays.map(\.value) }
    case .combineLatest, .combineLatestObserved:
      return Property.combineLatest(relays.map { $0.asProperty() })
    case .mapOfComputed:
      return Property { relays.map(\.value) }.map { $0 }
    }
  }

  @Test(
    "Four threads write their own relay and read a property over all four",
    arguments: Shape.allCases)
  func fourWritersReadTheirOwnWrites(shape: Shape) {
    let relays = (0..<Self.threads).map { _ in BehaviorRelay(0) }
    let property = Self.property(shape, over: relays)
    let token = shape.isObserved ? property.subscribe { _ in } : nil
    let stale = Atomic<Int>(0)
    let example = Mutex<String?>(nil)
    let finished = runConcurrently(threads: Self.threads, timeout: 120 * Sustained.slowdown) {
      index in
      for round in 1...Self.rounds {
        relays[index].accept(round)
        let read = property.value[index]
        if read < round {
          stale.add(1, ordering: .relaxed)
          example.withLock { $0 = $0 ?? "thread \(index) wrote \(round), read \(read)" }
        }
      }
    }
    #expect(finished)
    #expect(
      stale.load(ordering: .relaxed) == 0,
      "\(stale.load(ordering: .relaxed)) stale reads of \(Self.threads * Self.rounds); first: \(example.withLock { $0 ?? "" })"
    )
    #expect(property.value == Array(repeating: Self.rounds, count: Self.threads))
    _ = token
  }
  /// A computation that stops, once armed, in its next run (on whichever thread runs it)
  /// until released: the window in which another thread reads what it computes.
  final class Gate: Sendable {
    private let armed = Atomic<Bool>(false)
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    func arm() { armed.store(true, ordering: .releasing) }
    /// Called by the computation: waits there if armed.
    func pass() {
      guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
      entered.signal()
      released.wait()
    }
    func waitUntilEntered() { entered.wait() }
    func release() { released.signal() }
  }

  /// How the computed property comes back to an observer on the other thread.
  enum Comeback: String, CaseIterable, CustomTestStringConvertible {
    /// A subscription resumes it (`Engine.resume`).
    case subscribed
    /// A `map` made over it attaches and resumes it.
    case mapped
    var testDescription: String { rawValue }
  }

  @Test(
    "A read while another thread resumes a computed property gives the newest value",
    arguments: Comeback.allCases)
  func readWhileAnotherThreadResumes(_ comeback: Comeback) {
    // Resuming links the property to its inputs, marking it attached, and then computes it
    // again from what they delivered (it missed their writes while suspended), with the lock
    // let go. A read in between took the attached node's delivered value: the one from before
    // the writes it missed, older than the reader's own write.
    let relay = BehaviorRelay(0)
    let gate = Gate()
    let property = Property { () -> Int in
      let value = relay.value
      gate.pass()
      return value
    }
    #expect(property.value == 0)
    relay.accept(1)
    // Read, as a view showing it would: the value is cached, so that coming back computes the
    // property only where it resumes.
    #expect(property.value == 1)
    let done = DispatchSemaphore(value: 0)
    let observer = Mutex<(SubscriptionToken?, Property<Int>?)>((nil, nil))
    let resumer = Thread {
      gate.arm()
      switch comeback {
      case .subscribed: observer.withLock { $0.0 = property.subscribe { _ in } }
      case .mapped: observer.withLock { $0.1 = property.map { $0 + 1 } }
      }
      done.signal()
    }
    resumer.start()
    gate.waitUntilEntered()
    let read = property.value
    gate.release()
    done.wait()
    #expect(read == 1, "read \(read) after writing 1, while another thread resumed the property")
    // The resumer's observer follows the property from now on.
    relay.accept(2)
    #expect(property.value == 2)
  }

  @Test("A read while the property switches to another domain does not take a value cached there")
  func readWhileAnotherThreadJoinsTheInnerPropertysDomain() {
    // A pull compares the stamp it began at (a write count of its root domain) with the
    // stamps of the values cached in it. The reader's pull of `property` began at count c of
    // its domain; meanwhile the drainer switched `property` to `followed`, joining the
    // relay's domain, where `followed` had been pulled at that domain's own count c, before
    // the reader's write. The reader then took that value as computed in its pull: the equal
    // number was another domain's count.
    let selector = BehaviorRelay(0)
    let relay = BehaviorRelay(0)
    let other = Property { -1 }
    let followed = Property { relay.value }
    let choosing = Gate()
    let property = selector.asProperty().flatMapLatest { value in
      choosing.pass()
      return [other, followed][value % 2]
    }
    let token = property.subscribe { _ in }
    let delivering = Gate()
    let switched = Gate()
    let sinkToken = selector.asProperty().subscribe { value in
      if value == 1_000 { delivering.pass() }
      if value == 1_001 { switched.pass() }
    }
    // The relay's domain reaches, before the reader's write, the count the property's domain
    // will have once the three writes below are counted: the reader's pull begins there.
    let counts = { (relay.asProperty().node.writeStampNow, property.node.writeStampNow) }
    while counts().0 < counts().1 + 3 { relay.accept(relay.value + 1) }
    var evens = 0
    while counts().0 > counts().1 + 3 {
      evens += 2
      selector.accept(evens)
    }
    #expect(followed.value == relay.value)  // cached at the relay's domain's count
    let ownWrite = 1_000_000
    let done = DispatchSemaphore(value: 0)
    let drainer = Thread {
      delivering.arm()
      selector.accept(1_000)  // holds the role in the property's domain: its sink waits
      done.signal()
    }
    drainer.start()
    delivering.waitUntilEntered()
    selector.accept(1_001)  // queued: switches to `followed`
    selector.accept(1_003)  // queued: keeps the domain unsettled after the switch
    let read = Mutex<Int?>(nil)
    let reader = Thread {
      relay.accept(ownWrite)  // its own domain still: delivered at once
      choosing.arm()
      let value = property.value  // pulls: a write is queued; stops choosing the inner property
      read.withLock { $0 = value }
      done.signal()
    }
    reader.start()
    choosing.waitUntilEntered()
    switched.arm()
    delivering.release()  // the drainer delivers 1,001: joins the relay's domain, switches
    switched.waitUntilEntered()
    choosing.release()  // the reader reads `followed`, now of its pull's domain
    done.wait()
    switched.release()
    done.wait()
    let value = read.withLock { $0 }
    #expect(
      value == ownWrite, "read \(value.map(String.init) ?? "nothing") after writing \(ownWrite)")
    #expect(property.value == ownWrite)
    _ = (token, sinkToken)
  }

  @Test("A read does not take a value another thread's nested pull cached from an older state")
  func readAfterAnotherThreadsNestedPullReusedAnOlderValue() {
    // The concurrent fuzz's stale read (issue 26, seed 4028900246). A pull reuses, for the
    // rest of the read, a value it computed that may not be cached (a `flatMapLatest`
    // following on demand an inner property it made). A pull nested in it (a computation
    // reading a node made during the read) began at a later count of the domain, after the
    // reader's write, and cached as of that count what it computed from the reused value:
    // `computed` below, from `relay`'s value before the write. The reader's own pull, begun at
    // an earlier count, computed `computed` with its write, could not replace a value cached
    // at a later count, and returned that one: 0 after writing 1, every run, before the fix.
    let relay = BehaviorRelay(0)  // the reader's
    let selector = BehaviorRelay(0)  // written in the other thread's batch
    let later = BehaviorRelay(0)  // moves the count past the reader's write
    // Keeps `later` in the others' domain (`selector`'s, which the properties below join).
    let joiner = Property.combineLatest(later.asProperty(), selector.asProperty())
    let choosing = Gate()
    // Each read on demand at a new count makes its inner property: a read of it is not
    // cacheable (not linked yet), so the pull that computed it keeps it for its own reads.
    let followsRelay = selector.asProperty().flatMapLatest { _ in
      choosing.pass()
      return relay.asProperty().map { $0 }
    }
    let computed = followsRelay.map { $0 }
    let switching = Gate()
    // Follows `followsRelay` through a map until `selector` moves; then, on demand, a new map
    // of `computed`, whose read is a pull nested in the one that computed `followsRelay`.
    let outer = selector.asProperty().flatMapLatest { value in
      switching.pass()
      return value == 0 ? followsRelay.map { $0 } : computed.map { $0 }
    }
    let done = DispatchSemaphore(value: 0)
    let ending = DispatchSemaphore(value: 0)
    let otherThread = Thread {
      batch {
        selector.accept(1)  // in the batch: reads compute on demand
        switching.arm()
        _ = outer.value  // computes `followsRelay`, then stops choosing `outer`'s inner
        done.signal()
        // Its batch ends after the reader's read: its delivery would pull `computed` again.
        ending.wait()
      }
      done.signal()
    }
    otherThread.start()
    switching.waitUntilEntered()
    choosing.arm()
    let read = Mutex<Int?>(nil)
    let reader = Thread {
      batch {
        relay.accept(1)
        // Pulls `computed` at the count of this write; stops choosing `followsRelay`'s inner.
        let value = computed.value
        read.withLock { $0 = value }
      }
      done.signal()
    }
    reader.start()
    choosing.waitUntilEntered()
    later.accept(1)  // the other thread's nested pull begins after this write
    switching.release()  // it computes `computed` from its own `followsRelay`: relay = 0
    done.wait()
    choosing.release()
    done.wait()
    ending.signal()
    done.wait()
    let value = read.withLock { $0 }
    #expect(value == 1, "read \(value.map(String.init) ?? "nothing") after writing 1")
    #expect(computed.value == 1)
    _ = joiner
  }

  /// What switches to the relay's branch: a property whose inputs change with a value.
  enum Switcher: String, CaseIterable, CustomTestStringConvertible {
    /// `flatMapLatest` whose transform makes the inner property (a `map`).
    case flatMapLatestMakingInner
    /// `flatMapLatest` over existing properties.
    case flatMapLatest
    /// A computed property whose branch reads the relay.
    case computed
    var testDescription: String { rawValue }
  }

  @Test(
    "A reader of a property that switches to another domain's relay reads its own writes to it",
    arguments: Switcher.allCases)
  func readsOwnWritesThroughAPropertyThatSwitches(_ switcher: Switcher) {
    // One thread flips `selector` without pause; the other writes `relay` and reads the
    // property, which follows `relay` while `selector` is odd. Each flip joins the relay's
    // domain to the property's, or lets it split off. The causes found, each fixed:
    // - A join added the two domains' write counts, and a part split off took the whole
    //   count: it doubled at every cycle and wrapped, and a cached value whose stamp was then
    //   above its domain's count was returned for good (see
    //   `DynamicGraphDefectsTests.readAfterManyJoinsAndSplits`).
    // - A `flatMapLatest` whose switch waited behind another thread's delivery cached the
    //   value it read from the new inner property as if it were linked to it.
    // Before: 19 to 3,274 of 5,000 reads older than the reader's own write, for every shape.
    // - A relink that waited behind another thread's delivery (the relay's domain busy when
    //   the property joined it) left the property's delivered value, computed from the relay's
    //   newest write then, taken as current while the relay's next writes were delivered
    //   without reaching it; reads now compute it until its relink is delivered. In 150 runs:
    //   25 with stale reads before (18 computed, 7 `flatMapLatest`), 6 after (`flatMapLatest`).
    // - What remained (`flatMapLatest` only, 4 of 150 runs) was not a split: the reader's pull
    //   of the property began at a count c of its domain; `followed`, suspended in the relay's
    //   domain, had been pulled at that domain's count c too, before the reader's write; the
    //   flipper's delivery then switched to `followed`, joining the two domains, and the
    //   reader's pull took `followed`'s cached value as computed in it, since its stamp and
    //   domain now matched the pull's: the equal number was the other domain's count. The
    //   counts of the two domains advance together here (one write each a round), so they
    //   often meet. A cached value now records the domain its stamp counts
    //   (`PullCache.stampRoot`), which a pull compares too
    //   (`readWhileAnotherThreadJoinsTheInnerPropertysDomain`): 4 of 150 runs before, none of
    //   300 after.
    let selector = BehaviorRelay(1)
    let relay = BehaviorRelay(0)
    let other = Property { -1 }
    let followed = Property { relay.value }
    let property: Property<Int>
    switch switcher {
    case .flatMapLatestMakingInner:
      property = selector.asProperty().flatMapLatest { [other, followed][$0 % 2].map { $0 } }
    case .flatMapLatest:
      property = selector.asProperty().flatMapLatest { [other, followed][$0 % 2] }
    case .computed:
      property = Property { selector.value % 2 == 1 ? relay.value : -1 }
    }
    let token = property.subscribe { _ in }
    let rounds = Sustained.isUnderThreadSanitizer ? 1_000 : 5_000
    let stale = Atomic<Int>(0)
    let example = Mutex<String?>(nil)
    let finished = runConcurrently(threads: 2, timeout: 120 * Sustained.slowdown) { index in
      for round in 1...rounds {
        guard index == 1 else {
          selector.accept(round)
          continue
        }
        relay.accept(round)
        let read = property.value
        if read != -1 && read < round {
          stale.add(1, ordering: .relaxed)
          example.withLock { $0 = $0 ?? "wrote \(round), read \(read)" }
        }
      }
    }
    #expect(finished)
    #expect(
      stale.load(ordering: .relaxed) == 0,
      "\(stale.load(ordering: .relaxed)) of \(rounds) reads older than the reader's write; first: \(example.withLock { $0 ?? "" })"
    )
    _ = token
  }
}
