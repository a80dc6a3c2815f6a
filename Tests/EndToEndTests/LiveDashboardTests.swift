import Invalidating
import InvalidatingDashboard
import Testing

/// The live mode on recorded readings and a screen in memory: a resize lays the views out
/// again and redraws only the panels it changed, and `--frames` ends the run.
@MainActor
@Suite struct LiveDashboardTests {
  /// A live dashboard of the recorded readings on a screen of `columns` by `rows`, started,
  /// with its first frame drawn.
  private static func firstFrame(columns: Int, rows: Int) throws -> (LiveDashboard, VirtualScreen) {
    let screen = VirtualScreen(columns: columns, rows: rows)
    let live = LiveDashboard(source: Samples.source(), screen: screen)
    #expect(try live.start())
    #expect(try live.takeReading()?.redrawn == ["header", "cpu", "memory", "processes"])
    return (live, screen)
  }

  @Test func theRootTakesTheScreenButTheStatusRows() throws {
    let (live, screen) = try Self.firstFrame(columns: 100, rows: 30)
    let root = live.dashboard.rootView
    #expect(root.frame == ViewRect(x: 0, y: 0, width: 100, height: 28))
    #expect(root.memory.frame == ViewRect(x: 50, y: 2, width: 50, height: 5))
    #expect(root.processes.frame == ViewRect(x: 0, y: 8, width: 100, height: 20))
    #expect(screen.lines[0].hasSuffix(" invalidating-dashboard"))
    #expect(screen.trimmedLines[2] == "CPU" + String(repeating: " ", count: 47) + "Memory")
    #expect(
      screen.trimmedLines[29]
        == "frame 1 · recorded · redrew header, cpu, memory, processes · q quits")
  }

  @Test func aResizeLaysTheRootOutAgainAndRedrawsThePanelsItResized() throws {
    let (live, screen) = try Self.firstFrame(columns: 100, rows: 30)
    let root = live.dashboard.rootView
    screen.resize(columns: 80, rows: 24)
    screen.resetCounts()
    let resize = try #require(live.screenDidResize())

    // Every panel's width follows the screen's, so every panel lays out and redraws, once.
    #expect(resize.redrawn == ["header", "cpu", "memory", "processes"])
    #expect(resize.tick == RenderLoop.Frame(layouts: 5, displays: 5))
    #expect(root.frame == ViewRect(x: 0, y: 0, width: 80, height: 22))
    #expect(root.header.frame == ViewRect(x: 0, y: 0, width: 80, height: 1))
    #expect(root.cpu.frame == ViewRect(x: 0, y: 2, width: 40, height: 4))
    #expect(root.memory.frame == ViewRect(x: 40, y: 2, width: 40, height: 5))
    #expect(root.processes.frame == ViewRect(x: 0, y: 8, width: 80, height: 14))
    // The screen is written anew, at the new width.
    #expect(screen.clears == 1)
    #expect(
      screen.trimmedLines == [
        "vm · 2 cores · load 1.34 0.79 0.38                        invalidating-dashboard",
        "",
        "CPU                                     Memory",
        "cpu0 ██████████████████████████ 100%    used       0.5 GiB of 23.5 GiB",
        "cpu1 ██████████████████████████  99%               ░░░░░░░░░░░░░░░░░░░░   2%",
        "all  ██████████████████████████ 100%    available  23.0 GiB",
        "                                        cache      1.2 GiB",
        "",
        "Top processes",
        "    PID  NAME             S     CPU%     MEMORY",
        "  20461  swift-frontend   R     14.3    120 MiB",
        "  20464  swift-frontend   R     12.2    130 MiB",
        "     77  kdamond.0        I      1.1      0 KiB",
        "     15  rcu_preempt      I      0.5      0 KiB",
        "     32  kworker/u8:1-ext I      0.5      0 KiB",
        "      1  process_api      S      0.0     16 MiB",
        "   2675  memfd:sealed-91  S      0.0    968 KiB",
        "     21  migration/1      S      0.0      0 KiB",
        "    939  memfd:sealed-91  S      0.0      1 MiB",
        "",
        "",
        "",
        "",
        "resized to 80x24 · recorded · redrew header, cpu, memory, processes · q quits",
      ])
    // The next reading redraws what it changed, at the new size.
    let next = try #require(try live.takeReading())
    #expect(next.redrawn == ["header", "cpu", "processes"])
    #expect(screen.trimmedLines[0].hasPrefix("vm · 2 cores · load 1.88 0.91 0.42 "))
    #expect(screen.lines.allSatisfy { $0.count == 80 })
  }

  @Test func aResizeOfTheHeightAloneRedrawsOnlyTheProcesses() throws {
    let (live, screen) = try Self.firstFrame(columns: 100, rows: 30)
    let root = live.dashboard.rootView
    let log = live.dashboard.log
    screen.resize(columns: 100, rows: 16)
    let resize = try #require(live.screenDidResize())

    #expect(resize.redrawn == ["processes"])
    #expect(
      log.entries.map(\.description) == [
        "layout root", "display root", "layout processes", "display processes",
        "display processes", "render root", "render processes",
      ])
    #expect(root.processes.frame == ViewRect(x: 0, y: 8, width: 100, height: 6))
    #expect(root.processes.rows.map(\.id) == [20461, 20464, 77, 15])
    #expect(
      screen.trimmedLines[13]
        == "     15  rcu_preempt                          I      0.5      0 KiB")
    #expect(screen.trimmedLines[14] == "")
    #expect(screen.trimmedLines[15] == "resized to 100x16 · recorded · redrew processes · q quits")
  }

  @Test func aResizeNoticeWithoutANewSizeDoesNothing() throws {
    let (live, screen) = try Self.firstFrame(columns: 80, rows: 24)
    screen.resetCounts()
    #expect(live.screenDidResize() == nil)
    #expect(screen.clears == 0 && screen.writtenRows.isEmpty)
    #expect(live.statistics.resizes == 0)
  }

  @Test func aResizeBeforeTheFirstFrameOnlySizesTheRoot() throws {
    let screen = VirtualScreen(columns: 100, rows: 30)
    let live = LiveDashboard(source: Samples.source(), screen: screen)
    #expect(try live.start())
    #expect(screen.trimmedLines[0] == "reading recorded · q quits")
    screen.resize(columns: 80, rows: 24)
    #expect(live.screenDidResize() == nil)
    #expect(live.dashboard.renderLoop.statistics.ticks == 0)
    #expect(screen.trimmedLines[0] == "reading recorded · q quits")

    try live.takeReading()
    #expect(live.dashboard.rootView.frame.size == ViewSize(width: 80, height: 22))
    #expect(screen.lines.allSatisfy { $0.count == 80 })
    #expect(screen.trimmedLines[0].hasSuffix(" invalidating-dashboard"))
    #expect(live.statistics.resizes == 0)
  }

  @Test func theStatisticsCountTheResizesAsFramesThatCouldRedrawEveryPanel() throws {
    let (live, screen) = try Self.firstFrame(columns: 100, rows: 30)
    screen.resize(columns: 100, rows: 20)
    live.screenDidResize()
    #expect(
      live.statistics.report(source: "recorded", interval: 1)
        .hasPrefix("invalidating-dashboard: 1 frame from recorded, 1.0 s apart, 1 resize\n"))
    #expect(live.statistics.summary.hasSuffix("5 of 8 panel frames redrawn, 3 skipped"))
  }

  @Test func withAFrameLimitTheRunEndsAnIntervalAfterTheLastFrame() throws {
    let screen = VirtualScreen(columns: 80, rows: 24)
    let live = LiveDashboard(source: Samples.source(), screen: screen, frameLimit: 2)
    #expect(try live.start())
    #expect(try live.takeReading()?.number == 1)
    #expect(try live.takeReading()?.number == 2)
    #expect(
      screen.trimmedLines[23] == "frame 2/2 · recorded · redrew header, cpu, processes · q quits")
    #expect(!live.isFinished)
    // The call that would take the third reading ends the run instead, and reads nothing.
    #expect(try live.takeReading() == nil)
    #expect(live.isFinished)
    #expect(live.statistics.frames == 2)
    #expect(live.statistics.readings == 3)
    #expect(live.screenDidResize() == nil)
  }

  @Test func withoutALimitTheRunEndsWhenTheSourceRunsOut() throws {
    let screen = VirtualScreen(columns: 80, rows: 24)
    let live = LiveDashboard(source: Samples.source(), screen: screen)
    #expect(try live.start())
    var frames = 0
    while try live.takeReading() != nil { frames += 1 }
    #expect(frames == Samples.count - 1)
    #expect(live.isFinished)
  }
}
