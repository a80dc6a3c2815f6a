import InvalidatingCore
import InvalidatingInvalidation
import InvalidatingPlatform
import InvalidatingTestSupport
import Testing

/// A view whose `count` invalidates layout, and whose `label` invalidator writes `count`.
private final class CounterView: RecordingView {
  /// Sets `count` to 100 when it runs: a write made by an invalidation.
  struct Overwrite: ViewInvalidatingType {
    func invalidate(view: PlatformView) {
      (view as? CounterView)?.count = 100
    }
  }

  @ViewInvalidating(.layout) var count = 0
  @ViewInvalidating(.layout, Overwrite()) var label = ""
}

@MainActor
@Suite("$name, the projected Property")
struct ProjectedValueTests {
  @Test("$name delivers the current value, then each real change once")
  func deliversEachChangeOnce() {
    let view = CounterView()
    let seen = Recorder<Int>()
    let token = view.$count.subscribe(seen.sink)
    for value in [1, 1, 2, 2, 2, 3, 1] { view.count = value }
    #expect(seen.values == [0, 1, 2, 3, 1])
    #expect(view.$count.value == 1)
    token.cancel()
  }

  @Test("$name starts from the value held when it is first read")
  func startsFromTheCurrentValue() {
    let view = CounterView()
    view.count = 7
    let seen = Recorder<Int>()
    let token = view.$count.subscribe(seen.sink)
    view.count = 8
    #expect(seen.values == [7, 8])
    token.cancel()
  }

  @Test("$name is one Property per view property, created once")
  func oneProperty() {
    let view = CounterView()
    #expect(view.$count === view.$count)
    #expect(view.$count !== view.$label)
  }

  @Test("subscribers run after the invalidations")
  func deliversAfterInvalidating() {
    let view = CounterView()
    let callsWhenDelivered = Recorder<Int>()
    let token = view.$count.subscribe { _ in
      MainActor.assumeIsolated { callsWhenDelivered.record(view.calls.count) }
    }
    view.clearCalls()
    view.count = 1
    #expect(callsWhenDelivered.values == [0, 1])
    token.cancel()
  }

  @Test("a write made by an invalidation leaves subscribers on the latest value")
  func nestedWriteEndsOnLatest() {
    let view = CounterView()
    let counts = Recorder<Int>()
    let labels = Recorder<String>()
    let countToken = view.$count.subscribe(counts.sink)
    let labelToken = view.$label.subscribe(labels.sink)
    view.label = "set"
    #expect(view.count == 100)
    #expect(counts.values == [0, 100])
    #expect(view.$count.value == view.count)
    #expect(labels.values == ["", "set"])
    countToken.cancel()
    labelToken.cancel()
  }

  @Test("a view is freed while its $name has subscribers")
  func viewIsFreed() {
    let tracker = LifetimeTracker()
    let seen = Recorder<Int>()
    var token: SubscriptionToken?
    do {
      let view = CounterView()
      tracker.track(view, "view")
      token = view.$count.subscribe(seen.sink)
      view.count = 1
    }
    #expect(tracker.alive.isEmpty)
    #expect(seen.values == [0, 1])
    token?.cancel()
  }
}
