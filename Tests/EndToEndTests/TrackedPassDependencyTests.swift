import Invalidating
import InvalidatingTestSupport
import Observation
import Synchronization
import Testing

/// An `@Observable` model whose changes a computed property follows.
@Observable
private final class Stock: @unchecked Sendable {
  // Safe for these tests: written on the main actor only.
  var count = 1
}

/// A value that is not `Equatable`: a computed property of it notifies after every
/// computation.
private struct Reading: Sendable {
  let value: Int
}

/// A view whose display pass makes a derived property of the model and reads it.
@MainActor
private final class DoublingView: HeadlessView {
  let base: Property<Int>
  init(base: Property<Int>) {
    self.base = base
    super.init(frame: .zero)
  }
  override func render() -> String {
    let base = base
    let doubled = Property { base.value * 2 }
    return "\(doubled.value)"
  }
}

/// A reusable view: it is handed another item's title from time to time.
@MainActor
private final class ItemView: HeadlessView {
  var title: Property<String>
  init(title: Property<String>) {
    self.title = title
    super.init(frame: .zero)
  }
  override func render() -> String { title.value }
}

@MainActor
@Suite("Tracked passes: properties made in the pass, completed dependencies, @Observable changes")
struct TrackedPassDependencyTests {
  /// The pass reads a property it made; the property is released when the pass ends, before
  /// the pass's watch attaches to it, and the watch ends up on a node that left the graph.
  @Test func aPassThatReadsAPropertyItMadeIsRequestedWhenTheModelChanges() {
    let base = BehaviorRelay(1)
    let view = DoublingView(base: base.asProperty())
    view.displayIfNeeded()
    #expect(view.renderedText == "2")
    #expect(view.trackedDependencyCount(of: .display) == 1)
    base.accept(2)
    #expect(view.needsDisplay)
  }

  /// The pass read only a relay that was then released (it completed, and the watch's node
  /// completed with it, letting its sink go); the next pass reads a live relay, and the watch
  /// is relinked onto that completed node.
  @Test func aViewReusedAfterItsOnlyDependencyCompletedFollowsItsNewOne() {
    let view: ItemView
    do {
      let first = BehaviorRelay("first")
      view = ItemView(title: first.asProperty())
      view.displayIfNeeded()
      #expect(view.renderedText == "first")
    }  // `first` is released: its source completes
    let second = BehaviorRelay("second")
    view.title = second.asProperty()
    view.setNeedsDisplay()
    view.displayIfNeeded()
    #expect(view.renderedText == "second")
    #expect(view.trackedDependencyCount(of: .display) == 1)
    second.accept("changed")
    #expect(view.needsDisplay)
  }

  /// Every computation registers with Observation again, and a registration only ends when
  /// the object changes: after a few changes of another dependency, one change of the
  /// observable fires every registration, each a write of the trigger, each a delivery.
  @Test func oneChangeOfAnObservableIsOneDeliveryHoweverOftenTheComputationRan() async {
    let stock = Stock()
    let offset = BehaviorRelay(0)
    let runs = Counter()
    let reading = Property<Reading> {
      runs.bump()
      return Reading(value: stock.count + offset.value)
    }
    let seen = Recorder<Int>()
    let token = reading.subscribe { seen.record($0.value) }
    offset.accept(10)
    offset.accept(20)
    offset.accept(30)
    #expect(seen.values == [1, 11, 21, 31])
    let runsBefore = runs.value
    stock.count = 2
    #expect(await waitUntil { seen.count >= 5 })
    // Every main-actor task queued by the change ran before this one.
    await Task { @MainActor in }.value
    await Task { @MainActor in }.value
    #expect(seen.values == [1, 11, 21, 31, 32])
    #expect(runs.value == runsBefore + 1)
    token.cancel()
  }
}
