import Dispatch
import Invalidating
import InvalidatingTestSupport
import Testing

/// A view controller as UIKit apps write them: isolated to the main actor, assigning its own
/// stored properties from the view model's state.
@MainActor
final class CounterController {
  private(set) var title = ""
  private(set) var shown: [Int] = []
  var tokens: [SubscriptionToken] = []

  init(count: Property<Int>) {
    count.drive { [weak self] value in
      // Main-actor state, assigned in the sink: compiles only because the sink is isolated.
      self?.shown.append(value)
      self?.title = "Count: \(value)"
    }.store(in: &tokens)
  }
}

/// A main-actor object that is not a view, for the main-actor `bind(to:_:)`.
@MainActor
final class TitleController {
  var title = ""
  var tokens: [SubscriptionToken] = []
}

/// `drive(_:)` and the main-actor `bind(to:_:)`: synchronous on the main actor, a hop from
/// elsewhere, never an older value after a newer one.
@MainActor
@Suite struct MainActorDeliveryTests {
  @Test func theCurrentValueArrivesBeforeDriveReturns() {
    let count = BehaviorRelay(7)
    let controller = CounterController(count: count.asProperty())
    #expect(controller.shown == [7])
    #expect(controller.title == "Count: 7")
  }

  @Test func aWriteOnTheMainActorIsSeenBeforeItReturns() {
    let count = BehaviorRelay(0)
    let controller = CounterController(count: count.asProperty())
    count.accept(1)
    #expect(controller.title == "Count: 1")
    batch {
      count.accept(2)
      count.accept(3)
      #expect(controller.shown == [0, 1])
    }
    // The batch's end delivered its latest value, once, before `batch` returned.
    #expect(controller.shown == [0, 1, 3])
  }

  @Test func aWriteOnAnotherThreadHopsToTheMainActor() async {
    let count = BehaviorRelay(0)
    let controller = CounterController(count: count.asProperty())
    writeOnAnotherThread { count.accept(5) }
    // Written elsewhere: not yet delivered, since the main actor was busy with this test.
    #expect(controller.shown == [0])
    #expect(await waitUntil { controller.shown.last == 5 })
    #expect(controller.shown == [0, 5])
  }

  @Test func aNewerWriteOnTheMainActorOvertakesAnOlderOneOnItsWay() async {
    let count = BehaviorRelay(0)
    let controller = CounterController(count: count.asProperty())
    // A second driven relay, written on the same thread right after: its hop is scheduled
    // after the controller's, so once it has arrived, the controller's hop has run too.
    let marker = BehaviorRelay(false)
    var markerArrived = false
    let markerToken = marker.asProperty().drive { markerArrived = $0 }
    writeOnAnotherThread {
      count.accept(1)  // its hop waits for this test to yield
      marker.accept(true)
    }
    count.accept(2)
    #expect(controller.shown == [0, 2])
    #expect(await waitUntil { markerArrived })
    // 1 never arrives: it was replaced by 2 before the main actor could run its hop.
    #expect(controller.shown == [0, 2])
    _ = markerToken
  }

  @Test func aSinkThatWritesItsOwnSourceIsNotNested() {
    let level = BehaviorRelay(0)
    var seen: [Int] = []
    var depth = 0
    var maxDepth = 0
    let token = level.asProperty().drive { value in
      depth += 1
      maxDepth = max(maxDepth, depth)
      seen.append(value)
      if value > 10 { level.accept(10) }
      depth -= 1
    }
    level.accept(12)
    #expect(seen == [0, 12, 10])
    #expect(maxDepth == 1)
    _ = token
  }

  @Test func backgroundWritersEndOnTheFinalValueInOrder() async {
    let count = BehaviorRelay(0)
    let writer = IncreasingWriter(count)
    let controller = CounterController(count: count.asProperty())
    let writers = Task.detached {
      await withTaskGroup(of: Void.self) { group in
        for _ in 1...4 {
          group.addTask {
            for _ in 1...500 { writer.writeNext() }
          }
        }
      }
    }
    // Main-actor writes interleaved with the background ones.
    for _ in 1...50 {
      writer.writeNext()
      await Task.yield()
    }
    await writers.value
    let final = count.value
    #expect(await waitUntil { controller.shown.last == final })
    #expect(controller.shown == controller.shown.sorted())
    #expect(Set(controller.shown).count == controller.shown.count)
  }

  @Test func cancellingDropsAWaitingValue() async {
    let count = BehaviorRelay(0)
    let controller = CounterController(count: count.asProperty())
    writeOnAnotherThread { count.accept(1) }
    for token in controller.tokens { token.cancel() }
    // A later subscription's hop runs after the dropped one would have.
    let seen = WaitingRecorder<Int>()
    let token = count.asProperty().observe(on: DispatchQueue.main) { seen.record($0) }
    await seen.waitForCount(1)
    await MainActor.run {}
    #expect(controller.shown == [0])
    _ = token
  }

  @Test func bindingAMainActorObjectAssignsOnTheMainActor() async {
    let title = BehaviorRelay("a")
    let controller = TitleController()
    title.asProperty().bind(to: controller, \.title).store(in: &controller.tokens)
    #expect(controller.title == "a")
    title.accept("b")
    #expect(controller.title == "b")
    writeOnAnotherThread { title.accept("c") }
    #expect(controller.title == "b")
    #expect(await waitUntil { controller.title == "c" })
  }

  @Test func aSendableObjectIsBoundOnTheWritersThreadEvenFromTheMainActor() {
    // A `Sendable` object with a `Sendable` key path gets the any-thread binding: no hop, so a
    // write on another thread has been assigned when it returns.
    let title = BehaviorRelay("a")
    let label = SendableLabel()
    let token = title.asProperty().bind(to: label, \.text)
    writeOnAnotherThread { title.accept("b") }
    #expect(label.text == "b")
    _ = token
  }

  @Test func aMainActorBindingHoldsItsObjectWeakly() {
    let title = BehaviorRelay("a")
    let tracker = LifetimeTracker()
    var controller: TitleController? = TitleController()
    tracker.track(controller!, "controller")
    let token = title.asProperty().bind(to: controller!, \.title)
    controller = nil
    #expect(tracker.alive == [])
    title.accept("b")
    _ = token
  }
}

/// Runs `body` on another thread and returns once it has: a write there is delivered there.
func writeOnAnotherThread(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    body()
    done.signal()
  }
  done.wait()
}

/// Lets the main actor run other work until `condition` holds; `false` after ten seconds (a
/// value that never arrived).
@MainActor
func waitUntil(_ condition: @MainActor () -> Bool) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now + .seconds(10)
  while !condition() {
    if clock.now >= deadline { return false }
    await Task.yield()
  }
  return true
}

/// Writes increasing numbers into a relay from several threads, one write at a time, so that
/// the order of the values is the order of the writes.
final class IncreasingWriter: @unchecked Sendable {
  // Safe: `count` is read and written only on `queue`.
  private let queue = DispatchQueue(label: "increasing writer")
  private var count = 0
  private let relay: BehaviorRelay<Int>

  init(_ relay: BehaviorRelay<Int>) {
    self.relay = relay
  }

  /// Writes the next number.
  func writeNext() {
    queue.sync {
      count += 1
      relay.accept(count)
    }
  }
}
