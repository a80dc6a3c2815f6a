import Foundation
import Invalidating
import InvalidatingCore
import InvalidatingTestSupport
@_spi(SwiftUI) import Observation
import Testing

/// Follows what `read` reads with Observation's persistent tracking (the kind SwiftUI installs
/// for a view's `body`, which lasts until cancelled), and counts its `willSet` and `didSet`
/// calls: how many changes Observation was told of.
private final class ObservationCount: @unchecked Sendable {
  // Safe: `tracking` is written once, by `init`, before any handler can use it.
  let willSets = Counter()
  let didSets = Counter()
  private var tracking: ObservationTracking?

  init<Result>(_ read: () -> Result) {
    let willSets = willSets
    let didSets = didSets
    _ = withObservationTracking(read) { tracking in
      willSets.bump()
      self.tracking = tracking
    } didSet: { _ in
      didSets.bump()
    }
  }
}

/// Whether a one-shot `withObservationTracking` of `read` fires after `change`, and what the
/// handler read, through `readInHandler`, when it ran.
private func firesOnce<Value: Sendable>(
  reading read: @escaping @Sendable () -> Value, after change: () -> Void
) -> (fired: Int, readInHandler: [Value]) {
  let fired = Counter()
  let seen = Recorder<Value>()
  _ = withObservationTracking {
    read()
  } onChange: {
    fired.bump()
    seen.record(read())
  }
  change()
  return (fired.value, seen.values)
}

/// A view whose `@ViewInvalidating` properties other code reads.
@MainActor
private final class CountBadgeView: HeadlessView {
  @ViewInvalidating(.layout) var count = 0
}

/// An object with an `@ObjectInvalidating` property.
private final class Fragment: Invalidatable {
  struct Rerender: ObjectInvalidatingType {
    func invalidate(object fragment: Fragment) { fragment.rerenders += 1 }
  }
  @ObjectInvalidating(Rerender()) var title = "a"
  var rerenders = 0

  init() {}
}

/// A view model of `@ReadWrite` state.
private final class CounterModel: @unchecked Sendable {
  // Safe: the wrapper's storage is never reassigned.
  @ReadWrite(0) var count: Property<Int>
}

@Suite("Observation visibility: Observation's tracking sees every Property read (rule 14)")
struct ObservationVisibilityTests {
  // Off by default on Linux; these tests are about what Observation sees when it is on. (No
  // suite turns it off, so that tests running in parallel see it on.)
  init() { ObservationVisibility.isEnabled = true }

  @Test func aRelayReadFiresOnChangeAndTheHandlerReadsTheNewValue() {
    let relay = BehaviorRelay(1)
    let result = firesOnce(reading: { relay.value }, after: { relay.accept(2) })
    #expect(result.fired == 1)
    // The change is delivered, after the store: unlike an `@Observable` property's handler,
    // this one reads the new value.
    #expect(result.readInHandler == [2])
    #expect(relay.hasObservationRegistrar)
  }

  @Test func everyKindOfPropertyFiresOncePerChange() {
    let relay = BehaviorRelay(1)
    let model = CounterModel()
    let kinds: [(name: String, read: @Sendable () -> Int, change: () -> Void)] = [
      ("relay", { relay.value }, { relay.accept(relay.value + 1) }),
      (
        "asProperty", { [readOnly = relay.asProperty()] in readOnly.value },
        { relay.accept(relay.value + 1) }
      ),
      (
        "map", { [mapped = relay.map { $0 * 10 }] in mapped.value },
        { relay.accept(relay.value + 1) }
      ),
      (
        "computed", { [computed = Property { relay.value + 100 }] in computed.value },
        { relay.accept(relay.value + 1) }
      ),
      ("@ReadWrite", { model.count.value }, { model.$count.accept(model.count.value + 1) }),
      (
        "computed over @ReadWrite",
        { [doubled = Property { model.count.value * 2 }] in doubled.value },
        { model.$count.accept(model.count.value + 1) }
      ),
    ]
    for kind in kinds {
      let count = ObservationCount(kind.read)
      kind.change()
      kind.change()
      #expect(count.willSets.value == 2, "\(kind.name)")
      #expect(count.didSets.value == 2, "\(kind.name)")
      batch {
        kind.change()
        kind.change()
      }
      // One delivered change for the batch, one notification.
      #expect(count.willSets.value == 3, "\(kind.name)")
      #expect(count.didSets.value == 3, "\(kind.name)")
    }
  }

  @MainActor
  @Test func invalidatingPropertiesAndTheirProjectionsAreSeen() {
    let view = CountBadgeView()
    let projected = ObservationCount { view.$count.value }
    let wrapped = ObservationCount { view.count }
    view.count = 1
    view.count = 2
    view.count = 2  // equal: stops in the wrapper
    #expect(projected.willSets.value == 2)
    #expect(wrapped.willSets.value == 2)

    let fragment = Fragment()
    let title = ObservationCount { fragment.$title.value }
    let wrappedTitle = ObservationCount { fragment.title }
    fragment.title = "b"
    #expect(title.willSets.value == 1)
    #expect(wrappedTitle.willSets.value == 1)
    #expect(fragment.rerenders == 1)
  }

  @Test func aDeduplicatingPropertyThatDoesNotChangeStaysSilent() {
    let relay = BehaviorRelay(1)
    let isLarge = Property { relay.value > 5 }
    let distinct = relay.map { $0 / 10 }.removeDuplicates()
    let large = ObservationCount { isLarge.value }
    let tens = ObservationCount { distinct.value }
    relay.accept(2)
    relay.accept(3)
    #expect(large.willSets.value == 0)
    #expect(tens.willSets.value == 0)
    relay.accept(12)
    #expect(large.willSets.value == 1)
    #expect(tens.willSets.value == 1)
  }

  @Test func unrelatedWritesStaySilent() {
    let read = BehaviorRelay(1)
    let other = BehaviorRelay(1)
    let sum = Property { other.value + 1 }
    let count = ObservationCount { read.value }
    let token = sum.subscribe { _ in }
    other.accept(2)
    batch { other.accept(3) }
    #expect(count.willSets.value == 0)
    read.accept(2)
    #expect(count.willSets.value == 1)
    token.cancel()
  }

  @Test func readsOutsideObservationsTrackingRegisterNothing() {
    let relay = BehaviorRelay(1)
    _ = relay.value
    let doubled = Property { relay.value * 2 }
    _ = doubled.value
    // Nothing is kept for Observation on a property it never read.
    #expect(!relay.hasObservationRegistrar)
    #expect(!doubled.hasObservationRegistrar)
    let fired = Counter()
    // A tracking installed after the read, with no read of its own, is not told.
    withObservationTracking {
      ()
    } onChange: {
      fired.bump()
    }
    relay.accept(2)
    #expect(fired.value == 0)
  }

  @Test func theEnginesOwnReadsAreNotObservationsOnes() {
    // An untracked read inside a computed property, whose first run is under the engine's
    // own Observation tracking: were the read shown to Observation, the property would follow
    // the relay as an `@Observable` read.
    let relay = BehaviorRelay(1)
    let runs = Counter()
    let snapshot = Property<Int> {
      runs.bump()
      return untracked { relay.value }
    }
    let seen = Recorder<Int>()
    let token = snapshot.subscribe(seen.sink)
    let before = runs.value
    batch { relay.accept(2) }
    relay.accept(3)
    #expect(runs.value == before)
    #expect(seen.values == [1])
    #expect(!relay.hasObservationRegistrar)
    token.cancel()
  }

  @Test func aReleasedPropertyIsFreedAndStopsFollowing() {
    let relay = BehaviorRelay(1)
    weak var released: Property<Int>?
    do {
      let computed = Property { relay.value * 2 }
      released = computed
      _ = ObservationCount { computed.value }
    }
    #expect(released == nil)
  }

  @Test func threadsThatReadOneNewPropertyAtOnceAllHearOfItsChange() async {
    let relay = BehaviorRelay(0)
    let doubled = Property { relay.value * 2 }
    let threads = 8
    let fired = Counter()
    let readers = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    let reads = Recorder<Int>()
    for _ in 0..<threads {
      readers.enter()
      Thread {
        start.wait()
        let value = withObservationTracking {
          doubled.value
        } onChange: {
          fired.bump()
        }
        reads.record(value)
        readers.leave()
      }.start()
    }
    for _ in 0..<threads { start.signal() }
    readers.wait()
    #expect(reads.values == Array(repeating: 0, count: threads))
    relay.accept(1)
    #expect(fired.value == threads)
  }

  #if DEBUG
    @Test func aReadRightAfterTheRegistrarIsPublishedHearsTheNextChange() {
      // The first tracked read of a property makes its registrar and the subscription that
      // tells it of changes. Another thread's read that finds the registrar published, and a
      // write delivered right after, come between the publishing and the first reader's own
      // registration (the hook's place). That read must hear of the write: the registrar
      // followed the node before it was published. (Published first and followed after, the
      // write came before the subscription, and the other read's tracking never fired.)
      let relay = BehaviorRelay(0)
      let otherFired = Counter()
      let otherRead = Recorder<Int>()
      ObservationVisibility.afterPublishingRegistrar(of: relay) {
        let done = DispatchSemaphore(value: 0)
        Thread {
          let value = withObservationTracking {
            relay.value
          } onChange: {
            otherFired.bump()
          }
          otherRead.record(value)
          done.signal()
        }.start()
        done.wait()
        relay.accept(1)
      }
      let firstFired = Counter()
      let firstRead = withObservationTracking {
        relay.value
      } onChange: {
        firstFired.bump()
      }
      #expect(otherRead.values == [0])
      #expect(otherFired.value == 1)
      // The first reader registered after the write, and read its value.
      #expect(firstRead == 1)
      relay.accept(2)
      #expect(firstFired.value == 1)
      #expect(otherFired.value == 1)
    }
  #endif

  @Test func trackingsOnThreadsWhileAnotherWritesEachFireExactlyOnce() {
    // Readers track properties none of them has read yet, in different orders, while a
    // writer writes: the first tracked reads of each property race with each other and with
    // the writes. Observation installs a tracking after its closure returns, so a write in
    // between may pass unseen; the tracking then fires at the next write. After the final
    // write, every tracking has fired, once.
    let relay = BehaviorRelay(0)
    let properties = (0..<20).map { offset in Property { relay.value + offset } }
    let readers = 4
    let rounds = 25
    let fired = Counter()
    let done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    let wrong = Counter()
    for reader in 0..<readers {
      done.enter()
      Thread {
        start.wait()
        for round in 0..<rounds {
          let index = (round * (reader + 1) + reader) % properties.count
          let property = properties[index]
          let value = withObservationTracking {
            property.value
          } onChange: {
            fired.bump()
          }
          if value < index || value > index + 1_000 { wrong.bump() }
        }
        done.leave()
      }.start()
    }
    done.enter()
    Thread {
      start.wait()
      for value in 1...1_000 { relay.accept(value) }
      done.leave()
    }.start()
    for _ in 0...readers { start.signal() }
    done.wait()
    relay.accept(-1)
    #expect(fired.value >= readers * rounds)
    // Observation's own race, which `@Observable` shares: a change delivered while
    // Observation installs a tracking (after its closure returns) calls `onChange` and
    // cancels before the installation stored its registrations, which then stay live and
    // fire at every later write. Measured on two busy cores, this shape with 20 `@Observable`
    // models in place of the properties: 1 run in 200 fired more (683 for 100 trackings);
    // with the properties, 1 in 200 (1,100). See "What a handler sees" in the SwiftUI and
    // Observation article.
    withKnownIssue(
      Comment(
        rawValue: "Observation's installation race: a write during a tracking's installation "
          + "leaves it live (for @Observable models too)"),
      isIntermittent: true
    ) {
      #expect(fired.value == readers * rounds)
    }
    #expect(wrong.value == 0)
    #expect(properties.allSatisfy { $0.hasObservationRegistrar })
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test func observationsYieldsTheCurrentValueThenEachChange() async {
    let model = CounterModel()
    let doubled = Property { model.count.value * 2 }
    let values = Observations { doubled.value }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    model.$count.accept(1)
    #expect(await iterator.next() == 2)
    batch {
      model.$count.accept(2)
      model.$count.accept(3)
    }
    // Transactional: the batch is one change.
    #expect(await iterator.next() == 6)
  }
}
