import InvalidatingPlatform
import Testing

@MainActor
@Suite("HeadlessView rendering")
struct HeadlessViewRenderingTests {
  @Test("the output is cached until setNeedsDisplay")
  func cachedUntilInvalidated() {
    let tree = Tree()
    tree.leaf.content = "v1"
    tree.leaf.setNeedsDisplay()
    tree.loop.tick()
    tree.leaf.content = "v2"
    tree.leaf.setNeedsLayout()
    tree.loop.tick()
    #expect(tree.leaf.renderedText == "v1")
    tree.leaf.setNeedsDisplay()
    tree.loop.tick()
    #expect(tree.leaf.renderedText == "v2")
    #expect(tree.log.entries("display").count == 2)
  }

  @Test("compositing places each output at its frame, clipped, back to front")
  func composited() {
    let log = PassLog()
    let screen = RecordingView(
      "screen", log: log, content: "+------+", frame: ViewRect(x: 0, y: 0, width: 8, height: 3))
    let title = RecordingView(
      "title", log: log, content: "Title!", frame: ViewRect(x: 1, y: 1, width: 4, height: 1))
    let badge = RecordingView(
      "badge", log: log, content: "42\nxx", frame: ViewRect(x: 6, y: 1, width: 4, height: 4))
    screen.addSubview(title)
    screen.addSubview(badge)
    let loop = RenderLoop()
    loop.addRootView(screen)
    loop.tick()
    #expect(screen.compositedText() == "+------+\n Titl 42\n      xx")
  }

  @Test("compositing reads the cache and runs no pass")
  func compositingRunsNoPass() {
    let log = PassLog()
    let view = RecordingView(
      "view", log: log, content: "abc", frame: ViewRect(x: 0, y: 0, width: 3, height: 1))
    #expect(view.compositedText() == "   ")
    #expect(log.entries.isEmpty)
    view.displayIfNeeded()
    #expect(view.compositedText() == "abc")
  }
}
