import Invalidating
import InvalidatingTestSupport
import Testing

/// A view that shows a model's state by reading it in its passes, with no binding, and counts
/// the requests it receives.
@MainActor
private final class ProfileView: HeadlessView {
  let name: Property<String>
  let nickname: Property<String>
  let showsNickname: Property<Bool>
  let badge: Property<Int>
  private(set) var shownTitle = ""
  private(set) var layoutRequests = 0
  private(set) var propertyRequests = 0
  private(set) var displayRequests = 0
  private(set) var passes: [String] = []

  init(
    name: Property<String>, nickname: Property<String>, showsNickname: Property<Bool>,
    badge: Property<Int>
  ) {
    self.name = name
    self.nickname = nickname
    self.showsNickname = showsNickname
    self.badge = badge
    super.init(frame: ViewRect(x: 0, y: 0, width: 20, height: 1))
  }

  override func updateProperties() {
    passes.append("properties")
    shownTitle = showsNickname.value ? nickname.value : name.value
  }

  override func layoutSubviews() {
    passes.append("layout")
    _ = badge.value
  }

  override func render() -> String {
    passes.append("display")
    return shownTitle
  }

  override func setNeedsLayout() {
    layoutRequests += 1
    super.setNeedsLayout()
  }

  override func setNeedsUpdateProperties() {
    propertyRequests += 1
    super.setNeedsUpdateProperties()
  }

  override func setNeedsDisplay() {
    displayRequests += 1
    super.setNeedsDisplay()
  }

  func resetCounts() {
    layoutRequests = 0
    propertyRequests = 0
    displayRequests = 0
    passes = []
  }
}

/// The model behind `ProfileView`.
private final class ProfileModel: Sendable {
  let name = BehaviorRelay("Ada")
  let nickname = BehaviorRelay("Countess")
  let showsNickname = BehaviorRelay(false)
  let badge = BehaviorRelay(0)

  @MainActor
  func makeView() -> ProfileView {
    ProfileView(
      name: name.asProperty(), nickname: nickname.asProperty(),
      showsNickname: showsNickname.asProperty(), badge: badge.asProperty())
  }
}

/// A label whose text another view reads.
@MainActor
private final class SourceLabelView: HeadlessView {
  @ViewInvalidating(.display) var text = "hello"
  override func render() -> String { text }
}

/// A view that reads another view's invalidating property, and one of its own.
@MainActor
private final class MirrorView: HeadlessView {
  let source: SourceLabelView
  @ViewInvalidating(.display) var suffix = "!"
  private(set) var layouts = 0

  init(source: SourceLabelView) {
    self.source = source
    super.init(frame: .zero)
  }

  override func layoutSubviews() {
    layouts += 1
    _ = source.text + suffix
  }
}

@MainActor
@Suite("Automatic invalidation: views track what their passes read")
struct AutomaticInvalidationTests {
  @Test func thePassesRunInUIKitsOrderPropertiesFirst() {
    let model = ProfileModel()
    let view = model.makeView()
    let loop = RenderLoop()
    loop.addRootView(view)
    let frame = loop.tick()
    #expect(view.passes == ["properties", "layout", "display"])
    #expect(frame == RenderLoop.Frame(propertyUpdates: 1, layouts: 1, displays: 1))
    #expect(view.renderedText == "Ada")
  }

  @Test func aChangeOfWhatAPassReadRequestsThatPassAgain() {
    let model = ProfileModel()
    let view = model.makeView()
    view.layoutIfNeeded()
    view.displayIfNeeded()
    view.resetCounts()
    model.name.accept("Grace")
    #expect(view.propertyRequests == 1)
    #expect(view.layoutRequests == 0)
    model.badge.accept(3)
    #expect(view.layoutRequests == 1)
    #expect(view.needsUpdateProperties && view.needsLayout)
  }

  @Test func eachRunRecordsAfreshSoABranchNoLongerTakenStopsCounting() {
    let model = ProfileModel()
    let view = model.makeView()
    view.updatePropertiesIfNeeded()
    view.resetCounts()
    model.nickname.accept("Enchantress")  // not read: showsNickname is false
    #expect(view.propertyRequests == 0)
    model.showsNickname.accept(true)
    #expect(view.propertyRequests == 1)
    view.updatePropertiesIfNeeded()  // now reads nickname, not name
    #expect(view.shownTitle == "Enchantress")
    view.resetCounts()
    model.name.accept("Grace")
    #expect(view.propertyRequests == 0)
    model.nickname.accept("Lady")
    #expect(view.propertyRequests == 1)
    #expect(view.trackedDependencyCount(of: .updateProperties) == 2)
  }

  @Test func aBatchRequestsEachPassOnce() {
    let model = ProfileModel()
    let view = model.makeView()
    view.layoutIfNeeded()
    view.resetCounts()
    batch {
      for index in 0..<10 {
        model.name.accept("Name \(index)")
        model.showsNickname.accept(index % 2 == 0)
        model.badge.accept(index)
      }
    }
    #expect(view.propertyRequests == 1)
    #expect(view.layoutRequests == 1)
  }

  @Test func readsOutsideThePassesAreNotTracked() {
    let model = ProfileModel()
    let view = model.makeView()
    view.layoutIfNeeded()
    view.resetCounts()
    _ = view.badge.value  // read by the test, not by a pass
    let outside = model.nickname.value
    #expect(outside == "Countess")
    model.nickname.accept("Other")
    #expect(view.propertyRequests == 0 && view.layoutRequests == 0)
  }

  @Test func untrackedReadsInsideAPassAreNotFollowed() {
    final class QuietView: HeadlessView {
      let value: Property<Int>
      init(value: Property<Int>) {
        self.value = value
        super.init(frame: .zero)
      }
      override func layoutSubviews() { _ = untracked { value.value } }
    }
    let relay = BehaviorRelay(0)
    let view = QuietView(value: relay.asProperty())
    view.layoutIfNeeded()
    relay.accept(1)
    #expect(!view.needsLayout)
    #expect(view.trackedDependencyCount(of: .layout) == 0)
  }

  @Test func aComputedPropertyReadInAPassIsFollowed() {
    let price = BehaviorRelay(2.0)
    let quantity = BehaviorRelay(3)
    let total = Property { price.value * Double(quantity.value) }
    final class TotalView: HeadlessView {
      let total: Property<Double>
      init(total: Property<Double>) {
        self.total = total
        super.init(frame: .zero)
      }
      override func render() -> String { "\(total.value)" }
    }
    let view = TotalView(total: total)
    view.displayIfNeeded()
    #expect(view.renderedText == "6.0")
    quantity.accept(4)
    #expect(view.needsDisplay)
    view.displayIfNeeded()
    #expect(view.renderedText == "8.0")
    price.accept(2.0)  // an equal total: the computed property cuts the change off
    #expect(!view.needsDisplay)
  }

  @Test func anotherViewsInvalidatingPropertyIsTrackedButNotTheViewsOwn() {
    let label = SourceLabelView()
    let mirror = MirrorView(source: label)
    mirror.layoutIfNeeded()
    #expect(mirror.layouts == 1)
    label.text = "bye"
    #expect(mirror.needsLayout)
    mirror.layoutIfNeeded()
    #expect(mirror.layouts == 2)
    mirror.suffix = "?"  // its own property: it asks for display, as declared, not layout
    #expect(!mirror.needsLayout)
    #expect(mirror.needsDisplay)
    #expect(mirror.trackedDependencyCount(of: .layout) == 1)
  }

  @Test func aReleasedViewStopsTrackingAndIsFreed() {
    let model = ProfileModel()
    let lifetimes = LifetimeTracker()
    do {
      let view = model.makeView()
      view.layoutIfNeeded()
      view.displayIfNeeded()
      lifetimes.track(view, "view")
    }
    #expect(lifetimes.alive.isEmpty)
    // Writing what it read reaches no one: every watch went with the view.
    let seen = Recorder<String>()
    let token = model.name.asProperty().subscribe(seen.sink)
    model.name.accept("Grace")
    #expect(seen.values == ["Ada", "Grace"])
    token.cancel()
  }

  @Test func aWriteOnAnotherThreadInvalidatesOnTheMainActor() async {
    let model = ProfileModel()
    let view = model.makeView()
    view.layoutIfNeeded()
    view.resetCounts()
    writeOnAnotherThread { model.badge.accept(9) }
    // The request waits for the main actor, which this test holds until it awaits.
    #expect(view.layoutRequests == 0)
    #expect(await waitUntil { view.layoutRequests == 1 })
    #expect(view.needsLayout)
  }

  @Test func aDependencyWrittenBetweenItsReadAndTheWatchIsNotMissed() {
    let relay = BehaviorRelay(0)
    final class RacingView: HeadlessView {
      let value: Property<Int>
      let writeDuringPass: @MainActor () -> Void
      init(value: Property<Int>, writeDuringPass: @escaping @MainActor () -> Void) {
        self.value = value
        self.writeDuringPass = writeDuringPass
        super.init(frame: .zero)
      }
      override func layoutSubviews() {
        _ = value.value
        writeDuringPass()  // lands after the read, before the pass's watch exists
      }
    }
    var written = false
    let view = RacingView(value: relay.asProperty()) {
      if !written {
        written = true
        relay.accept(1)
      }
    }
    view.layoutIfNeeded()
    #expect(view.needsLayout)
  }

  @Test func anInvalidationTrackerTracksAPassAViewRunsItself() {
    // What a UIView or NSView subclass writes (PlatformView is HeadlessView here).
    final class BadgeView: HeadlessView {
      let title: Property<String>
      private(set) var shownTitle = ""
      private let tracker = InvalidationTracker()
      init(title: Property<String>) {
        self.title = title
        super.init(frame: .zero)
      }
      func configure() {
        tracker.track(.display, of: self) { shownTitle = title.value }
      }
      var followed: Int { tracker.dependencyCount(of: .display) }
    }
    let title = BehaviorRelay("a")
    let view = BadgeView(title: title.asProperty())
    view.displayIfNeeded()
    view.configure()
    #expect(view.shownTitle == "a")
    #expect(view.followed == 1)
    title.accept("b")
    #expect(view.needsDisplay)
  }

  @Test func aPassThatStopsEarlyFollowsOnlyWhatItRead() {
    final class FreezableView: HeadlessView {
      let isFrozen: Property<Bool>
      let reading: Property<Int>
      init(isFrozen: Property<Bool>, reading: Property<Int>) {
        self.isFrozen = isFrozen
        self.reading = reading
        super.init(frame: .zero)
      }
      override func render() -> String {
        if isFrozen.value { return "frozen" }
        return "\(reading.value)"
      }
    }
    let isFrozen = BehaviorRelay(false)
    let reading = BehaviorRelay(1)
    let view = FreezableView(isFrozen: isFrozen.asProperty(), reading: reading.asProperty())
    view.displayIfNeeded()
    isFrozen.accept(true)
    view.displayIfNeeded()
    #expect(view.renderedText == "frozen")
    #expect(view.trackedDependencyCount(of: .display) == 1)
    reading.accept(2)
    #expect(!view.needsDisplay)
    isFrozen.accept(false)
    #expect(view.needsDisplay)
    view.displayIfNeeded()
    #expect(view.renderedText == "2")
  }
}
