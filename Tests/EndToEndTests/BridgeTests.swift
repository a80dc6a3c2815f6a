import Invalidating
import InvalidatingTestSupport
import Testing

/// The bridge between the two halves: a view's `@ViewInvalidating` property is a `Property`,
/// and a `Property` drives a view.
@MainActor
@Suite struct BridgeTests {
  let log = ViewLog()

  @Test func aViewPropertyIsObservedMappedAndCombinedLikeAnyProperty() {
    let label = LabelView("label", log: log)
    let texts = Recorder<String>()
    let lengths = Recorder<Int>()
    let pairs = Recorder<String>()
    let tokens = [
      label.$text.subscribe(texts.sink),
      label.$text.map(\.count).subscribe(lengths.sink),
      Property.combineLatest(label.$text, label.$color).map { "\($0)/\($1)" }
        .subscribe(pairs.sink),
    ]
    label.text = "Hi"
    label.text = "Hi"
    label.color = "red"
    #expect(texts.values == ["", "Hi"])
    #expect(lengths.values == [0, 2])
    #expect(pairs.values == ["/plain", "Hi/plain", "Hi/red"])
    _ = tokens
  }

  @Test func aViewPropertyIsBoundToAnotherView() {
    let source = LabelView("source", log: log)
    let mirror = LabelView("mirror", log: log)
    let token = source.$text.map { $0.uppercased() }.bind(to: mirror, \.text)
    log.removeAll()
    source.text = "hello"
    #expect(mirror.text == "HELLO")
    #expect(
      log.invalidations == [
        "display source", "intrinsicContentSize source", "display mirror",
        "intrinsicContentSize mirror",
      ])
    _ = token
  }

  @Test func bindingAssignsThroughTheWrapperAndEqualValuesInvalidateNothing() {
    let title = BehaviorRelay("a")
    let label = LabelView("label", log: log)
    let token = title.asProperty().bind(to: label, \.text)
    #expect(label.text == "a")
    #expect(log.invalidations == ["display label", "intrinsicContentSize label"])
    log.removeAll()
    title.accept("a")
    #expect(log.invalidations.isEmpty)
    title.accept("b")
    #expect(label.text == "b")
    #expect(log.invalidations == ["display label", "intrinsicContentSize label"])
    _ = token
  }

  @Test func bindingHoldsTheViewWeaklyAndEndsWithIt() {
    let title = BehaviorRelay("a")
    var label: LabelView? = LabelView("label", log: log)
    let weakLabel = Weak(label)
    let token = title.asProperty().bind(to: label!, \.text)
    label = nil
    #expect(weakLabel.object == nil)
    title.accept("b")
    title.accept("c")
    _ = token
  }

  @Test func offMainWritesAreAssignedOnTheMainActorInOrder() async {
    let count = BehaviorRelay(0)
    let label = LabelView("label", log: log)
    let seen = WaitingRecorder<String>()
    let token = count.asProperty().map(String.init).bind(to: label, \.text)
    let observer = label.$text.subscribe(seen.sink)
    await Task.detached {
      for value in 1...100 { count.accept(value) }
    }.value
    for await text in label.$text.values where text == "100" { break }
    let values = seen.values.compactMap(Int.init)
    #expect(values == values.sorted())
    #expect(Set(values).count == values.count)
    #expect(values.last == 100)
    _ = (token, observer)
  }

  @Test func directFormInvalidatesOnEveryChangeButNotForTheCurrentValue() {
    let load = BehaviorRelay(1.5)
    let view = LoggingView("load", log: log)
    let token = view.invalidate(.display, .layout, whenever: load.asProperty())
    #expect(log.invalidations.isEmpty)
    load.accept(2)
    #expect(log.invalidations == ["display load", "layout load"])
    _ = token
  }

  @Test func directFormIsDeduplicatedWithTheWrapperInsideABatch() {
    let load = BehaviorRelay(1.5)
    let label = LabelView("label", log: log)
    let token = label.invalidate(.display, whenever: load.asProperty())
    batch {
      load.accept(2)
      load.accept(3)
      label.text = "x"
      label.color = "red"
    }
    #expect(log.invalidations == ["display label", "intrinsicContentSize label"])
    _ = token
  }

  @Test func directFormHoldsTheViewWeaklyAndEndsWithIt() {
    let load = BehaviorRelay(0)
    var view: LoggingView? = LoggingView("load", log: log)
    let weakView = Weak(view)
    let token = view!.invalidate(.display, whenever: load.asProperty())
    view = nil
    #expect(weakView.object == nil)
    load.accept(1)
    #expect(log.invalidations.isEmpty)
    _ = token
  }

  @Test func directFormHopsToTheMainActorForOffMainWrites() async {
    let load = BehaviorRelay(0)
    let view = LoggingView("load", log: log)
    let signal = Blink()
    let token = view.invalidate(.display, signal, whenever: load.asProperty())
    await Task.detached {
      for value in 1...50 { load.accept(value) }
    }.value
    await signal.calls.waitForCount(1)
    #expect(view.needsDisplay)
    #expect(log.invalidations.allSatisfy { $0 == "display load" })
    #expect((1...50).contains(log.invalidations.count))
    _ = token
  }
}

/// An invalidator that checks it runs on the main actor and counts its calls.
struct Blink: ViewInvalidatingType {
  let calls = WaitingRecorder<Void>()

  func invalidate(view: PlatformView) {
    MainActor.preconditionIsolated("invalidators run on the main actor")
    calls.record(())
  }
}
