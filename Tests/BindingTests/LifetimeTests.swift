import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

/// A value that records its release.
private final class Payload: Sendable {
  let released: Locked<[Int]>
  let number: Int
  init(_ number: Int, _ released: Locked<[Int]>) {
    self.number = number
    self.released = released
  }
  deinit { released.withLock { $0.append(number) } }
}

@Suite struct LifetimeTests {
  final class ProfileViewModel {
    @ReadWrite("Ada") var name: Property<String>
    @ReadWrite(36) var age: Property<Int>
    @ReadWrite("") var title: Property<String>
    let summary: Property<String>
    let greeting: Property<String>
    let label = SendableLabel()
    var subscriptions: [SubscriptionToken] = []

    init() {
      summary = Property.combineLatest(_name.wrappedValue, _age.wrappedValue)
        .map { "\($0.0), \($0.1)" }
      greeting = _name.wrappedValue.map { "Hello, \($0)" }.removeDuplicates()
      summary.bind(to: label, \.text).store(in: &subscriptions)
      greeting.bind(to: $title).store(in: &subscriptions)
      name.changes.subscribe { _ in }.store(in: &subscriptions)
    }

    func birthday() { $age.accept(age.value + 1) }
  }

  @Test func aViewModelIsFreedWhenItsOwnerLetsGo() {
    let tracker = LifetimeTracker()
    var outside: Property<String>?
    do {
      let model = ProfileViewModel()
      tracker.track(model, "model")
      tracker.track(model.$name, "name relay")
      tracker.track(model.$age, "age relay")
      tracker.track(model.summary, "summary")
      tracker.track(model.greeting, "greeting")
      tracker.track(model.label, "label")
      model.birthday()
      #expect(model.label.text == "Ada, 37")
      #expect(model.title.value == "Hello, Ada")
      outside = model.summary
    }
    #expect(tracker.alive == ["summary"])
    // A property kept by someone else survives its source's owner with the last value.
    #expect(outside?.value == "Ada, 37")
    outside = nil
    #expect(tracker.alive == [])
  }

  /// A source is never detached, so the properties that wrap it count no keep-alive handle
  /// (issue 30: a relay's creation takes no lock for one): its count is what is computed from it
  /// and what subscribes to it, and the values still flow once the wrappers are gone.
  @Test func aRelaysOwnPropertiesCountNoHandleOnIt() {
    let relay = BehaviorRelay(1)
    var wrappers: [Property<Int>]? = [relay.asProperty(), Property(relay)]
    #expect(relay.node.lockedKeepAliveCount == 0)
    var doubled: Property<Int>? = wrappers![0].map { $0 * 2 }
    let seen = Recorder<Int>()
    let token = wrappers![1].subscribe(seen.sink)
    #expect(relay.node.lockedKeepAliveCount == 2)
    wrappers = nil
    relay.accept(2)
    #expect(seen.values == [1, 2])
    #expect(doubled?.value == 4)
    doubled = nil
    #expect(relay.node.lockedKeepAliveCount == 1)
    token.cancel()
    #expect(relay.node.lockedKeepAliveCount == 0)
    relay.accept(3)
    #expect(seen.values == [1, 2])
  }

  /// A derived value that a delivery replaced is let go: the node keeps no second copy of it
  /// (its cache of values pulled on demand holds nothing until a pull).
  @Test func aReplacedDerivedValueIsReleased() {
    let released = Locked<[Int]>([])
    let relay = BehaviorRelay(0)
    let mapped = relay.map { Payload($0, released) }
    #expect(mapped.value.number == 0)
    relay.accept(1)
    #expect(mapped.value.number == 1)
    #expect(released.withLock { $0 } == [0])
  }

  /// The same for a computed property: its first value, cached for reads at its creation
  /// stamp, is its delivered value (not a copy the cache kept, which held it for as long as the
  /// property lived: `[]` before, `[100]` after).
  @Test func aComputedPropertysReplacedFirstValueIsReleased() {
    let released = Locked<[Int]>([])
    let relay = BehaviorRelay(0)
    let computed = Property { Payload(relay.value + 100, released) }
    let token = computed.subscribe { _ in }
    relay.accept(1)
    #expect(computed.value.number == 101)
    #expect(released.withLock { $0 } == [100])
    _ = token
  }

  /// An unobserved computed property read before and after a write: its first value, cached as
  /// its delivered value, is read without computing it again, and the write's value is
  /// computed once, on demand.
  @Test func anUnobservedComputedPropertyCachesItsFirstValueAndThenItsPull() {
    let runs = Locked(0)
    let relay = BehaviorRelay(1)
    let computed = Property { () -> Int in
      runs.withLock { $0 += 1 }
      return relay.value * 10
    }
    #expect(computed.value == 10)
    #expect(computed.value == 10)
    #expect(runs.withLock { $0 } == 1)
    relay.accept(2)
    #expect(computed.value == 20)
    #expect(computed.value == 20)
    #expect(runs.withLock { $0 } == 2)
  }

  @Test func aDerivedPropertyDoesNotKeepTheRelayAlive() {
    let tracker = LifetimeTracker()
    var relay: BehaviorRelay<Int>? = BehaviorRelay(1)
    tracker.track(relay!, "relay")
    let doubled = relay!.asProperty().map { $0 * 2 }
    let completed = Recorder<Int>()
    let token = doubled.subscribe(completed.sink)
    relay!.accept(2)
    relay = nil
    #expect(tracker.alive == [])
    #expect(doubled.value == 4)
    #expect(completed.values == [2, 4])
    _ = token
  }
}
