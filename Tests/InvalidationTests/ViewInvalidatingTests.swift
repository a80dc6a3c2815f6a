import InvalidatingCore
import InvalidatingInvalidation
import InvalidatingPlatform
import Testing

/// A view with one property per built-in invalidation, and properties naming 1, 2, 3, 10 and
/// 24 invalidations; ``state`` shows `text`, so the records prove the order of store and
/// invalidate.
private final class SampleView: RecordingView {
  @ViewInvalidating(.layout) var layoutValue = 0
  @ViewInvalidating(.display) var displayValue = 0
  @ViewInvalidating(.constraints) var constraintsValue = 0
  @ViewInvalidating(.intrinsicContentSize) var sizeValue = 0

  @ViewInvalidating(.display) var text = ""
  @ViewInvalidating(.mark(1)) var one = 0
  @ViewInvalidating(.constraints, .layout) var two = 0
  @ViewInvalidating(.intrinsicContentSize, .mark(1), .display) var three = 0
  @ViewInvalidating(
    .layout, .mark(1), .display, .constraints, .mark(2), .intrinsicContentSize, .mark(3),
    .display, .mark(4), .layout)
  var ten = 0
  @ViewInvalidating(
    .mark(1), .layout, .mark(2), .display, .mark(3), .constraints, .mark(4),
    .intrinsicContentSize, .mark(5), .layout, .mark(6), .display, .mark(7), .constraints,
    .mark(8), .intrinsicContentSize, .mark(9), .layout, .mark(10), .display, .mark(11),
    .constraints, .mark(12), .intrinsicContentSize)
  var twentyFour = 0

  override var state: String { text }
}

/// The view of API.md's example, with a custom invalidator and a layout counter.
private final class BadgeView: RecordingView {
  @ViewInvalidating(.layout) var cornerRadius: Double = 12
  @ViewInvalidating(.display, .layout, .intrinsicContentSize) var text: String = ""
  @ViewInvalidating(.layout, .focus) var selected = false

  var layoutPasses = 0

  override func layoutSubviews() {
    layoutPasses += 1
  }
}

@MainActor
@Suite("@ViewInvalidating")
struct ViewInvalidatingTests {
  @Test("each built-in invalidation calls its view method once per change")
  func builtInsCallTheirMethods() {
    let view = SampleView()
    view.layoutValue = 1
    #expect(view.calls == ["layout"])
    view.clearCalls()
    view.displayValue = 1
    #expect(view.calls == ["display"])
    view.clearCalls()
    view.constraintsValue = 1
    #expect(view.calls == ["constraints"])
    view.clearCalls()
    view.sizeValue = 1
    #expect(view.calls == ["intrinsicContentSize"])
  }

  @Test("built-in invalidations set the view's flags")
  func builtInsSetFlags() {
    let view = SampleView()
    view.layoutIfNeeded()
    view.displayIfNeeded()
    #expect(!view.needsLayout && !view.needsDisplay && !view.needsUpdateConstraints)
    view.layoutValue = 1
    view.displayValue = 1
    view.constraintsValue = 1
    #expect(view.needsLayout && view.needsDisplay && view.needsUpdateConstraints)
  }

  @Test("the intrinsic content size invalidation asks the superview for layout")
  func intrinsicContentSizeReachesSuperview() {
    let parent = RecordingView()
    let view = SampleView()
    parent.addSubview(view)
    parent.clearCalls()
    view.sizeValue = 1
    #expect(parent.calls == ["layout"])
  }

  @Test("setting an equal value calls nothing")
  func equalValueDoesNothing() {
    let view = SampleView()
    view.ten = 5
    view.clearCalls()
    view.ten = 5
    view.layoutValue = 0
    view.text = ""
    #expect(view.calls.isEmpty)
    #expect(view.ten == 5)
  }

  @Test("the value is stored before the view is invalidated")
  func storesBeforeInvalidating() {
    let view = SampleView()
    view.text = "hello"
    view.text = "world"
    #expect(view.calls == ["display(hello)", "display(world)"])
    #expect(view.text == "world")
  }

  @Test("invalidations run in argument order", arguments: [1, 2, 3, 10])
  func argumentOrder(count: Int) {
    let view = SampleView()
    let expected: [String]
    switch count {
    case 1:
      view.one = 1
      expected = ["mark1"]
    case 2:
      view.two = 1
      expected = ["constraints", "layout"]
    case 3:
      view.three = 1
      expected = ["intrinsicContentSize", "mark1", "display"]
    default:
      view.ten = 1
      expected = [
        "layout", "mark1", "display", "constraints", "mark2", "intrinsicContentSize", "mark3",
        "display", "mark4", "layout",
      ]
    }
    #expect(view.calls == expected)
  }

  @Test("more invalidations than the inline codes hold keep their order")
  func manyInvalidationsKeepTheirOrder() {
    let view = SampleView()
    view.twentyFour = 1
    let builtIns = ["layout", "display", "constraints", "intrinsicContentSize"]
    let expected = (0..<24).map {
      $0.isMultiple(of: 2) ? "mark\($0 / 2 + 1)" : builtIns[$0 / 2 % 4]
    }
    #expect(view.calls == expected)
  }

  @Test("API.md's badge: one layout pass, projected value, custom invalidator")
  func badgeExample() {
    let badge = BadgeView()
    badge.layoutIfNeeded()
    badge.layoutPasses = 0
    badge.cornerRadius = 4
    #expect(badge.needsLayout)
    badge.cornerRadius = 4
    badge.layoutIfNeeded()
    #expect(badge.layoutPasses == 1)
    #expect(badge.$cornerRadius.value == 4)

    badge.clearCalls()
    badge.text = "new"
    #expect(badge.calls == ["display", "layout", "intrinsicContentSize"])

    badge.clearCalls()
    badge.selected = true
    #expect(badge.calls == ["layout"])
    #expect(badge.selected)
  }

  @Test("a custom invalidator gets the view, holding the new value")
  func customInvalidatorSeesTheView() {
    final class TitleView: HeadlessView {
      struct Capture: ViewInvalidatingType {
        func invalidate(view: PlatformView) {
          (view as? TitleView)?.seen.append((view as? TitleView)?.title ?? "?")
        }
      }
      @ViewInvalidating(Capture()) var title = ""
      var seen: [String] = []
    }
    let view = TitleView()
    view.title = "a"
    view.title = "a"
    view.title = "b"
    #expect(view.seen == ["a", "b"])
  }

  @Test("a built-in invalidation can be performed by hand, at once")
  func performingByHand() {
    let view = RecordingView()
    Invalidations.Layout().invalidate(view: view)
    ViewInvalidatingTypeProbe.perform(.display, on: view)
    #expect(view.calls == ["layout", "display"])
  }
}

/// Passes an invalidation the way generic user code would: through the protocol.
@MainActor
private enum ViewInvalidatingTypeProbe {
  static func perform(_ invalidation: some ViewInvalidatingType, on view: PlatformView) {
    invalidation.invalidate(view: view)
  }
}
