import InvalidatingPlatform
import Testing

@MainActor
@Suite("RenderLoop")
struct RenderLoopTests {
  @Test(
    "a tick runs properties root first, constraints leaves first, then layout root first, then display"
  )
  func passOrderAcrossThreeLevels() {
    let tree = Tree()
    for view in tree.all {
      view.setNeedsUpdateProperties()
      view.setNeedsUpdateConstraints()
      view.setNeedsLayout()
      view.setNeedsDisplay()
    }
    tree.log.removeAll()
    let frame = tree.loop.tick()
    #expect(
      tree.log.entries == [
        "properties root", "properties left", "properties leaf", "properties right",
        "constraints leaf", "constraints left", "constraints right", "constraints root",
        "layout root", "layout left", "layout leaf", "layout right",
        "display root", "display left", "display leaf", "display right",
      ])
    #expect(
      frame == RenderLoop.Frame(propertyUpdates: 4, constraintUpdates: 4, layouts: 4, displays: 4))
    #expect(tree.all.allSatisfy { !$0.hasPendingPass })
  }

  @Test("a tick after 1,000 invalidations of one view runs one layout and one display")
  func thousandInvalidationsOnePass() {
    let tree = Tree()
    for _ in 0..<1_000 {
      tree.leaf.setNeedsLayout()
      tree.leaf.setNeedsDisplay()
    }
    tree.log.removeAll()
    tree.loop.tick()
    #expect(tree.log.entries == ["layout leaf", "display leaf"])
    #expect(tree.loop.statistics.layouts == 1 && tree.loop.statistics.displays == 1)
  }

  @Test("only dirty views run passes, each once per tick, and a second tick is idle")
  func onlyDirtyViewsOnce() {
    let tree = Tree()
    tree.right.setNeedsDisplay()
    tree.leaf.setNeedsDisplay()
    tree.loop.tick()
    tree.loop.tick()
    #expect(tree.log.entries == ["display leaf", "display right"])
    #expect(tree.loop.statistics.ticks == 2)
    #expect(tree.loop.statistics.idleTicks == 1)
    #expect(!tree.loop.needsFlush)
  }

  @Test("a removed subview is no longer flushed")
  func removedSubviewNotFlushed() {
    let tree = Tree()
    tree.leaf.setNeedsDisplay()
    tree.leaf.removeFromSuperview()
    tree.log.removeAll()
    tree.loop.tick()
    #expect(tree.log.entries == ["layout left"])
    #expect(tree.leaf.needsDisplay)
  }

  @Test("a dirty subtree added to a hosted tree is flushed with it")
  func addedSubtreeFlushed() {
    let tree = Tree()
    let newcomer = RecordingView("newcomer", log: tree.log)
    tree.right.addSubview(newcomer)
    tree.log.removeAll()
    tree.loop.tick()
    #expect(
      tree.log.entries == [
        "properties newcomer", "layout right", "layout newcomer", "display newcomer",
      ])
  }

  @Test("a layout pass that resizes a subview gets it laid out and displayed in the same tick")
  func layoutPropagatesDownInOneTick() {
    let tree = Tree()
    tree.left.onLayout = { [leaf = tree.leaf] in
      leaf.frame = ViewRect(x: 0, y: 0, width: 4, height: 1)
    }
    tree.left.setNeedsLayout()
    tree.log.removeAll()
    tree.loop.tick()
    #expect(
      tree.log.entries == ["layout left", "setNeedsLayout leaf", "layout leaf", "display leaf"])
    #expect(!tree.loop.needsFlush)
  }

  @Test("a layout pass that marks a later sibling gets the sibling laid out in the same tick")
  func layoutMarksLaterSibling() {
    let tree = Tree()
    tree.left.onLayout = { [right = tree.right] in right.setNeedsLayout() }
    tree.left.setNeedsLayout()
    tree.log.removeAll()
    tree.loop.tick()
    #expect(tree.log.entries.contains("layout right"))
    #expect(!tree.right.needsLayout)
    #expect(!tree.loop.needsFlush)
  }

  @Test("a request made during display waits for the next tick")
  func requestDuringDisplayDeferred() {
    let tree = Tree()
    tree.right.onRender = { [root = tree.root] in root.setNeedsLayout() }
    tree.right.setNeedsDisplay()
    tree.loop.tick()
    #expect(tree.root.needsLayout)
    #expect(tree.loop.needsFlush)
    tree.log.removeAll()
    tree.loop.tick()
    #expect(tree.log.entries == ["layout root"])
  }

  @Test("flush ticks until settled and reports how many ticks it took")
  func flushSettles() {
    let tree = Tree()
    #expect(tree.loop.flush() == 0)
    tree.right.onRender = { [root = tree.root] in root.setNeedsLayout() }
    tree.right.setNeedsDisplay()
    #expect(tree.loop.flush() == 2)
    #expect(!tree.loop.needsFlush)
  }

  @Test("didTick reports each frame")
  func didTickReports() {
    let tree = Tree()
    var frames: [RenderLoop.Frame] = []
    tree.loop.didTick = { frames.append($0) }
    tree.leaf.setNeedsDisplay()
    tree.loop.tick()
    tree.loop.tick()
    #expect(frames == [RenderLoop.Frame(displays: 1), RenderLoop.Frame()])
  }

  @Test("root views: added once, moved between loops, removed when made a subview")
  func rootViews() {
    let loop = RenderLoop()
    let other = RenderLoop()
    let view = HeadlessView()
    loop.addRootView(view)
    loop.addRootView(view)
    #expect(loop.rootViews.count == 1)
    other.addRootView(view)
    #expect(loop.rootViews.isEmpty && other.rootViews.count == 1)
    HeadlessView().addSubview(view)
    #expect(other.rootViews.isEmpty)
    #expect(other.flush() == 0)
  }

  @Test("a removed root view is no longer flushed, and statistics reset to zero")
  func removeRootView() {
    let tree = Tree()
    tree.leaf.setNeedsDisplay()
    tree.loop.removeRootView(tree.root)
    tree.loop.tick()
    #expect(tree.log.entries.isEmpty)
    #expect(tree.loop.statistics.ticks == 1)
    tree.loop.resetStatistics()
    #expect(tree.loop.statistics == RenderLoop.Statistics())
  }
}
