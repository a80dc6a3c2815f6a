import InvalidatingPlatform
import Testing

@MainActor
@Suite("RenderLoop driver")
struct RenderLoopDriverTests {
  @Test("run ticks the requested number of frames, then returns")
  func runFrames() async {
    let tree = Tree()
    tree.leaf.setNeedsDisplay()
    await tree.loop.run(framesPerSecond: 1_000, frames: 3)
    #expect(tree.loop.statistics.ticks == 3)
    #expect(tree.log.entries == ["display leaf"])
  }

  @Test("a started driver with a frame count ticks that many times and stops running")
  func startFrames() async {
    let loop = RenderLoop()
    let task = loop.start(framesPerSecond: 1_000, frames: 5)
    #expect(loop.isRunning)
    await task.value
    #expect(loop.statistics.ticks == 5)
    #expect(!loop.isRunning)
  }

  @Test("stop cancels a running driver before its next tick")
  func stopCancels() async {
    let loop = RenderLoop()
    var ticksSeen = 0
    let task = loop.start(framesPerSecond: 1)
    loop.didTick = { _ in
      ticksSeen += 1
      loop.stop()
    }
    await task.value
    #expect(ticksSeen == 1)
    #expect(loop.statistics.ticks == 1)
    #expect(!loop.isRunning)
  }

  @Test("starting a driver replaces the running one")
  func restart() async {
    let loop = RenderLoop()
    let first = loop.start(framesPerSecond: 1)
    let second = loop.start(framesPerSecond: 1_000, frames: 2)
    await first.value
    await second.value
    #expect(loop.statistics.ticks == 2)
    #expect(!loop.isRunning)
  }
}
