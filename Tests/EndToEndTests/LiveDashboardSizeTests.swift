import Invalidating
import InvalidatingDashboard
import Testing

/// The live mode on small screens: below the size its panels need it says so, with too few
/// rows for the processes it leaves them out, and the status line keeps the quit key in view.
@MainActor
@Suite struct LiveDashboardSizeTests {
  /// A live dashboard of the recorded readings (two cores) on a `columns` by `rows` screen,
  /// with its first frame drawn.
  private static func firstFrame(columns: Int, rows: Int) throws -> (LiveDashboard, VirtualScreen) {
    let screen = VirtualScreen(columns: columns, rows: rows)
    let live = LiveDashboard(source: Samples.source(), screen: screen)
    #expect(try live.start())
    #expect(try live.takeReading() != nil)
    return (live, screen)
  }

  @Test func aTwentyBySixScreenSaysItIsTooSmallAndWhatItNeeds() throws {
    let (live, screen) = try Self.firstFrame(columns: 20, rows: 6)
    #expect(live.isTooSmall)
    #expect(
      screen.trimmedLines == [
        "terminal too small",
        "needs 60x10",
        "",
        "",
        "",
        "frame 1 ·… · q quits",
      ])
    // Readings go on, and still draw no panel.
    #expect(try live.takeReading() != nil)
    #expect(screen.trimmedLines[0...1] == ["terminal too small", "needs 60x10"])
    #expect(screen.trimmedLines[5] == "frame 2 ·… · q quits")
  }

  @Test func aTooSmallScreenResizedLargeEnoughShowsThePanels() throws {
    let (live, screen) = try Self.firstFrame(columns: 20, rows: 6)
    screen.resize(columns: 80, rows: 24)
    #expect(live.screenDidResize() != nil)
    #expect(!live.isTooSmall)
    #expect(screen.trimmedLines[2] == "CPU" + String(repeating: " ", count: 37) + "Memory")
    #expect(screen.trimmedLines[8] == "Top processes")
    #expect(
      screen.trimmedLines[23]
        == "resized to 80x24 · recorded · redrew header, cpu, memory, processes · q quits")
  }

  @Test func atSixtyColumnsEveryPanelShowsAndTheStatusLineKeepsTheQuitKey() throws {
    let (live, screen) = try Self.firstFrame(columns: 60, rows: 24)
    #expect(!live.isTooSmall)
    #expect(live.dashboard.rootView.memory.frame == ViewRect(x: 30, y: 2, width: 30, height: 5))
    #expect(
      screen.trimmedLines[0] == "vm · 2 cores · load 1.34 0.79 0.38    invalidating-dashboard")
    #expect(screen.trimmedLines[2] == "CPU" + String(repeating: " ", count: 27) + "Memory")
    #expect(screen.trimmedLines[8] == "Top processes")
    // The processes' names take the width the other columns leave.
    #expect(screen.trimmedLines[9] == "    PID  NAME    S     CPU%     MEMORY")
    #expect(
      screen.trimmedLines[23] == "frame 1 · recorded · redrew header, cpu, memory, … · q quits")
    #expect(screen.lines.allSatisfy { $0.count == 60 })
  }

  @Test func withTooFewRowsForTheProcessesOnlyTheOtherPanelsShow() throws {
    // Ten rows above the status rows: the CPU and memory panels end on row 7, and two rows are
    // left, fewer than the processes panel's title, column names and one process.
    let (live, screen) = try Self.firstFrame(columns: 80, rows: 12)
    #expect(!live.isTooSmall)
    #expect(live.dashboard.rootView.processes.frame.height == 0)
    #expect(screen.trimmedLines[2].hasPrefix("CPU"))
    #expect(screen.trimmedLines[8...10] == ["", "", ""])
    #expect(screen.trimmedLines[11].hasSuffix(" · q quits"))
  }

  @Test func theProgramsNameGivesWayToTheHeadlineWhenBothDoNotFit() throws {
    let source = Samples.source()
    let dashboard = Dashboard()
    dashboard.size = ViewSize(width: 50, height: 30)
    dashboard.prime(with: try #require(try source.nextSnapshot()))
    dashboard.show(try #require(try source.nextSnapshot()))
    let header = dashboard.screen.split(separator: "\n", omittingEmptySubsequences: false)[0]
    #expect(header == "vm · 2 cores · load 1.34 0.79 0.38" + String(repeating: " ", count: 16))
  }

  @Test func theStatusLineGivesWayBeforeTheQuitKey() {
    #expect(LiveDashboard.statusLine("frame 3", columns: 80) == "frame 3 · q quits")
    #expect(LiveDashboard.statusLine("frame 3 · simulated", columns: 20) == "frame 3 ·… · q quits")
    #expect(LiveDashboard.statusLine("frame 3", columns: 8) == "q quits")
    #expect(LiveDashboard.statusLine("frame 3", columns: 4) == "q qu")
  }
}

/// The live mode's keys: quit keys, and escape sequences, which do not quit.
@Suite struct LiveKeysTests {
  @Test func qCtrlCAndEscapeAloneQuit() {
    #expect(LiveKeys.action(for: [UInt8(ascii: "q")]) == .quit)
    #expect(LiveKeys.action(for: [UInt8(ascii: "Q")]) == .quit)
    #expect(LiveKeys.action(for: [3]) == .quit)
    #expect(LiveKeys.action(for: [27]) == .quit)
    #expect(LiveKeys.action(for: Array("x\u{1B}".utf8)) == .quit)
  }

  @Test func arrowAndFunctionKeysDoNotQuit() {
    for sequence in [
      "\u{1B}[A", "\u{1B}[B", "\u{1B}[C", "\u{1B}[D", "\u{1B}OA", "\u{1B}[15~",
      "\u{1B}[1;5C", "\u{1B}[A\u{1B}[B\u{1B}[D",
    ] {
      #expect(LiveKeys.action(for: Array(sequence.utf8)) == .none, "\(Array(sequence.utf8))")
    }
  }

  @Test func aKeyWithAltHeldDoesNotQuitButQAfterASequenceDoes() {
    #expect(LiveKeys.action(for: Array("\u{1B}x".utf8)) == .none)
    // Alt-q is Alt held with q: not a quit; q after an arrow key is.
    #expect(LiveKeys.action(for: Array("\u{1B}q".utf8)) == .none)
    #expect(LiveKeys.action(for: Array("\u{1B}[Aq".utf8)) == .quit)
    #expect(LiveKeys.action(for: Array("\u{1B}[A\u{1B}".utf8)) == .quit)
  }
}
