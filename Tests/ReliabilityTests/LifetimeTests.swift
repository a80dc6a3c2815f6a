import Dispatch
import Invalidating
import InvalidatingTestSupport
import Testing

/// Weak-reference tests for the APIs that capture, beyond what the layers' own suites show
/// (`BindingTests.LifetimeTests`: `@ReadWrite`, `map`, `combineLatest`, `removeDuplicates`,
/// `bind(to: object)`, `bind(to: BehaviorRelay)`, `changes` in a view model; `BindTests`:
/// `bind(to: object)` ending with its object; `FlatMapLatestTests`: replaced inner properties;
/// `ChangesAndValuesTests`: leaving a `values` loop; `ProjectedValueTests`: a view with `$x`
/// subscribers; `EndToEndTests.BridgeTests`: view bindings and `invalidate(_:whenever:)`).
///
/// Each test gives a closure an object to capture (a `Marker`) and shows it is freed once what
/// held the closure ends, and that no operator keeps its source's owner alive.
@Suite("Lifetimes of everything that captures")
struct LifetimeTests {
  /// Something for a closure to capture, to see when the closure is freed.
  final class Marker: Sendable {}

  /// A relay's owner: freeing it must free the relay, whatever was derived from it.
  final class Owner: Sendable {
    let relay = BehaviorRelay(1)
  }

  @Test("subscribe: the sink is freed when its token is cancelled, released, or the relay ends")
  func subscribeFreesItsSink() {
    let tracker = LifetimeTracker()
    let relay = BehaviorRelay(0)
    var token: SubscriptionToken?
    do {
      let marker = Marker()
      tracker.track(marker, "cancelled")
      token = relay.subscribe { _ in _ = marker }
    }
    token?.cancel()
    #expect(tracker.alive == [])

    do {
      let marker = Marker()
      tracker.track(marker, "released")
      token = relay.asProperty().changes.subscribe { _ in _ = marker }
    }
    token = nil
    #expect(tracker.alive == [])

    var owner: Owner? = Owner()
    do {
      let marker = Marker()
      tracker.track(marker, "relay gone")
      tracker.track(owner!, "owner")
      token = owner!.relay.subscribe { _ in _ = marker }
    }
    owner = nil
    #expect(tracker.alive == [])
    _ = token
  }

  @Test(
    "map, filter, removeDuplicates, combineLatest, flatMapLatest free their closures and sources",
    arguments: ["map", "filter", "removeDuplicates", "combineLatest", "flatMapLatest"])
  func operatorsFreeTheirClosures(_ name: String) {
    let tracker = LifetimeTracker()
    var owner: Owner? = Owner()
    var other: Owner? = Owner()
    tracker.track(owner!, "owner")
    tracker.track(other!, "other owner")
    var derived: Property<Int>?
    let seen = Recorder<Int>()
    var token: SubscriptionToken?
    do {
      let marker = Marker()
      tracker.track(marker, "closure")
      let source = owner!.relay.asProperty()
      let second = other!.relay.asProperty()
      switch name {
      case "map":
        derived = source.map {
          _ = marker
          return $0 + 1
        }
      case "filter":
        derived = source.filter(initial: 0) {
          _ = marker
          return $0 > 0
        }
      case "removeDuplicates":
        derived = source.removeDuplicates {
          _ = marker
          return $0 == $1
        }
      case "combineLatest":
        derived = Property.combineLatest(source, second).map {
          _ = marker
          return $0 + $1
        }
      default:
        derived = source.flatMapLatest { value in
          _ = marker
          return second.map { $0 + value }
        }
      }
      token = derived!.subscribe(seen.sink)
      owner!.relay.accept(2)
    }
    #expect(seen.values.count == 2)
    // The owners go: the derived property keeps its last value, not the owners.
    owner = nil
    other = nil
    #expect(tracker.alive == ["closure"])
    #expect(derived!.value == seen.values.last)
    // The subscriber and the property go: so does the closure.
    token = nil
    derived = nil
    #expect(tracker.alive == [])
    _ = token
  }

  @Test("bind(to:) a BehaviorRelay or a PublishRelay holds it weakly")
  func bindingToRelaysHoldsThemWeakly() {
    let tracker = LifetimeTracker()
    let source = BehaviorRelay(0)
    var behavior: BehaviorRelay<Int>? = BehaviorRelay(-1)
    var publish: PublishRelay<Int>? = PublishRelay()
    tracker.track(behavior!, "behavior relay")
    tracker.track(publish!, "publish relay")
    let published = Recorder<Int>()
    let publishToken = publish!.subscribe(published.sink)
    let tokens = [
      source.asProperty().bind(to: behavior!), source.asProperty().bind(to: publish!),
    ]
    source.accept(1)
    #expect(behavior?.value == 1)
    // A binding starts from the current value.
    #expect(published.values == [0, 1])
    behavior = nil
    publish = nil
    #expect(tracker.alive == [])
    // The next value finds the targets gone and ends both bindings: writing goes on.
    source.accept(2)
    source.accept(3)
    #expect(published.values == [0, 1])
    _ = (tokens, publishToken)
  }

  @Test("observe(on: queue): the sink is freed once cancelled and the queue has drained")
  func observeOnQueueFreesItsSink() {
    let tracker = LifetimeTracker()
    let queue = DispatchQueue(label: "lifetimes")
    var owner: Owner? = Owner()
    tracker.track(owner!, "owner")
    let seen = Recorder<Int>()
    var tokens: [SubscriptionToken] = []
    do {
      let cancelled = Marker()
      let ended = Marker()
      tracker.track(cancelled, "cancelled")
      tracker.track(ended, "relay gone")
      tokens.append(owner!.relay.asProperty().observe(on: queue) { _ in _ = cancelled })
      tokens.append(
        owner!.relay.asProperty().observe(on: queue) { value in
          _ = ended
          seen.record(value)
        })
    }
    owner!.relay.accept(2)
    tokens[0].cancel()
    owner = nil
    queue.sync {}
    #expect(tracker.alive == [])
    #expect(seen.values.last == 2)
    _ = tokens
  }

  actor Counter {
    var values: [Int] = []
    func add(_ value: Int) { values.append(value) }
  }

  @Test("observe(on: actor) and drive free their sinks and actors")
  @MainActor
  func observeOnActorFreesItsSink() async {
    let tracker = LifetimeTracker()
    let relay = BehaviorRelay(7)
    let onActor = WaitingRecorder<Int>()
    let onMain = WaitingRecorder<Int>()
    var tokens: [SubscriptionToken] = []
    do {
      let counter = Counter()
      let marker = Marker()
      tracker.track(counter, "actor")
      tracker.track(marker, "main-actor sink")
      tokens.append(
        relay.asProperty().observe(on: counter) { counter, value in
          counter.add(value)
          onActor.record(value)
        })
      tokens.append(
        relay.asProperty().drive { value in
          _ = marker
          onMain.record(value)
        })
    }
    // Both first deliveries done, nothing is on its way: cancelling frees everything.
    await onActor.waitForCount(1)
    await onMain.waitForCount(1)
    // The main-actor drain that recorded the value holds its inbox until it returns: a job on
    // the main actor after it runs once it has.
    await MainActor.run {}
    for token in tokens { token.cancel() }
    #expect(tracker.alive == [])
    #expect(onActor.values == [7])
    #expect(onMain.values == [7])
  }

  @Test("A view's $x, a view binding and invalidate(whenever:) do not keep each other alive")
  @MainActor
  func viewsAndTheirBindingsAreFreed() {
    final class Gauge: HeadlessView {
      @ViewInvalidating(.layout) var level = 0
      var tokens: [SubscriptionToken] = []
    }
    let tracker = LifetimeTracker()
    var owner: Owner? = Owner()
    tracker.track(owner!, "owner")
    let seen = Recorder<Int>()
    var levelToken: SubscriptionToken?
    do {
      let gauge = Gauge()
      tracker.track(gauge, "view")
      owner!.relay.asProperty().bind(to: gauge, \.level).store(in: &gauge.tokens)
      gauge.invalidate(.display, whenever: owner!.relay.asProperty()).store(in: &gauge.tokens)
      levelToken = gauge.$level.map { $0 * 10 }.subscribe(seen.sink)
      owner!.relay.accept(2)
      #expect(gauge.level == 2)
    }
    #expect(tracker.alive == ["owner"])
    owner = nil
    #expect(tracker.alive == [])
    #expect(seen.values == [10, 20])
    _ = levelToken
  }
}
