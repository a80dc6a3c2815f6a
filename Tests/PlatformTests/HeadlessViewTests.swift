import InvalidatingCore
import InvalidatingPlatform
import Testing

@MainActor
@Suite("HeadlessView")
struct HeadlessViewTests {
  @Test("a new view needs layout and display, not constraints")
  func newViewFlags() {
    let view = HeadlessView()
    #expect(view.needsLayout)
    #expect(view.needsDisplay)
    #expect(!view.needsUpdateConstraints)
  }

  @Test("each setNeeds... sets its own flag and the matching pass clears it")
  func flagsSetAndCleared() {
    let view = RecordingView("view", log: PassLog())
    view.layoutIfNeeded()
    view.displayIfNeeded()
    #expect(!view.hasPendingPass)

    view.setNeedsUpdateConstraints()
    #expect(view.needsUpdateConstraints && !view.needsLayout && !view.needsDisplay)
    view.updateConstraintsIfNeeded()
    #expect(!view.needsUpdateConstraints)

    view.setNeedsLayout()
    #expect(view.needsLayout && !view.needsDisplay)
    view.layoutIfNeeded()
    #expect(!view.needsLayout)

    view.setNeedsDisplay()
    #expect(view.needsDisplay && !view.needsLayout)
    view.displayIfNeeded()
    #expect(!view.needsDisplay)

    view.setNeedsDisplay(ViewRect(x: 0, y: 0, width: 1, height: 1))
    #expect(view.needsDisplay)
  }

  @Test("setNeedsLayout then layoutIfNeeded runs layoutSubviews once, and only when needed")
  func layoutIfNeededRunsOnce() {
    let log = PassLog()
    let view = RecordingView("view", log: log)
    view.layoutIfNeeded()
    log.removeAll()

    view.layoutIfNeeded()
    #expect(log.entries("layout").isEmpty)

    view.setNeedsLayout()
    view.setNeedsLayout()
    view.layoutIfNeeded()
    view.layoutIfNeeded()
    #expect(log.entries("layout") == ["layout view"])
  }

  @Test("displayIfNeeded renders once, and only when needed")
  func displayIfNeededRunsOnce() {
    let log = PassLog()
    let view = RecordingView("view", log: log, content: "hello")
    view.displayIfNeeded()
    view.displayIfNeeded()
    #expect(log.entries("display") == ["display view"])
    #expect(view.renderedText == "hello")
  }

  @Test("updateConstraintsIfNeeded runs leaves first, once per view")
  func constraintsLeavesFirst() {
    let tree = Tree()
    for view in tree.all { view.setNeedsUpdateConstraints() }
    tree.root.updateConstraintsIfNeeded()
    tree.root.updateConstraintsIfNeeded()
    #expect(
      tree.log.entries("constraints") == [
        "constraints leaf", "constraints left", "constraints right", "constraints root",
      ])
  }

  @Test("layoutIfNeeded updates constraints, then lays out root first, skipping clean views")
  func layoutIfNeededOrder() {
    let tree = Tree()
    tree.leaf.setNeedsUpdateConstraints()
    tree.leaf.setNeedsLayout()
    tree.root.setNeedsLayout()
    tree.log.removeAll()
    tree.root.layoutIfNeeded()
    #expect(tree.log.entries == ["constraints leaf", "layout root", "layout leaf"])
  }

  @Test("a subclass overriding setNeedsLayout sees every request")
  func subclassSeesRequests() {
    let log = PassLog()
    let view = RecordingView("view", log: log)
    for _ in 0..<3 { view.setNeedsLayout() }
    #expect(log.entries("setNeedsLayout").count == 3)
    #expect(view.needsLayout)
  }

  @Test("invalidating a subview's intrinsic size marks its superview for layout")
  func intrinsicSizeAsksSuperview() {
    let tree = Tree()
    tree.leaf.invalidateIntrinsicContentSize()
    #expect(tree.left.needsLayout)
    #expect(!tree.leaf.needsLayout)
    #expect(!tree.root.needsLayout)
    #expect(tree.log.entries == ["setNeedsLayout left"])
  }

  @Test("a view has no intrinsic size by default")
  func noIntrinsicSize() {
    let size = HeadlessView().intrinsicContentSize
    #expect(size.width == HeadlessView.noIntrinsicMetric)
    #expect(size.height == HeadlessView.noIntrinsicMetric)
  }

  @Test("resizing marks layout and display; moving does not")
  func frameChanges() {
    let view = HeadlessView(frame: ViewRect(x: 0, y: 0, width: 10, height: 2))
    view.layoutIfNeeded()
    view.displayIfNeeded()

    view.frame.origin = ViewPoint(x: 5, y: 5)
    #expect(!view.hasPendingPass)

    view.bounds = ViewRect(x: 0, y: 0, width: 20, height: 2)
    #expect(view.frame == ViewRect(x: 5, y: 5, width: 20, height: 2))
    #expect(view.bounds == ViewRect(x: 0, y: 0, width: 20, height: 2))
    #expect(view.needsLayout && view.needsDisplay)
  }

  @Test("it is the platform view on Linux and batches its invalidations through the engine")
  func invalidatableThroughEngine() {
    struct Layout: Equatable {}
    let log = PassLog()
    let view = RecordingView("view", log: log)
    let platformView: PlatformView = view
    batch {
      for _ in 0..<1_000 {
        platformView.invalidate(by: Layout()) { platformView.setNeedsLayout() }
      }
      #expect(log.entries.isEmpty)
    }
    #expect(log.entries == ["setNeedsLayout view"])
  }
}
