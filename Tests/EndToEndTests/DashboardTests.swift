import Foundation
import Invalidating
import InvalidatingDashboard
import Testing

/// The demo, end to end, on recorded readings: what each frame redraws, the final screen, and
/// the statistics it prints.
@MainActor
@Suite struct DashboardTests {
  @Test func threeFramesRedrawOnlyThePanelsWhoseInputsChanged() throws {
    let dashboard = Dashboard()
    dashboard.prime(with: try Samples.snapshot(1))
    let frames = try (2...4).map { dashboard.show(try Samples.snapshot($0)).redrawn }
    #expect(
      frames == [
        ["header", "cpu", "memory", "processes"],
        ["header", "cpu", "processes"],
        ["memory", "processes"],
      ])
  }

  @Test func theLogKeepsOneFramesEntriesSoALongRunDoesNotGrowIt() throws {
    let dashboard = Dashboard()
    dashboard.prime(with: try Samples.snapshot(1))
    var last: [String] = []
    for number in 2...4 { last = dashboard.show(try Samples.snapshot(number)).redrawn }
    #expect(dashboard.log.renders.filter { $0 != dashboard.rootView.name } == last)
    #expect(dashboard.statistics.panelRenders == 9)
  }

  @Test func theDemoRunForThreeFramesOnRecordedInputEndsOnThisScreen() {
    var output: [String] = []
    var pauses: [Double] = []
    var options = DashboardOptions()
    options.frames = 3
    let statistics = DashboardRunner.run(
      options: options, source: Samples.source(), pause: { pauses.append($0) },
      output: { output.append($0) })

    #expect(pauses == [1, 1, 1])
    #expect(output.count == 4)
    let screen = output[2].split(separator: "\n", omittingEmptySubsequences: false)
    #expect(screen.dropFirst().dropLast().allSatisfy { $0.count == 80 })
    #expect(
      screen.map(Self.trimmingTrailingSpaces) == [
        "frame 3/3 · redrew memory, processes",
        "vm · 2 cores · load 1.88 0.91 0.42                        invalidating-dashboard",
        "",
        "CPU                                     Memory",
        "cpu0 ██████████████████████████ 100%    used       0.6 GiB of 23.5 GiB",
        "cpu1 ██████████████████████████ 100%               ░░░░░░░░░░░░░░░░░░░░   2%",
        "all  ██████████████████████████ 100%    available  23.0 GiB",
        "                                        cache      1.2 GiB",
        "",
        "Top processes",
        "    PID  NAME             S     CPU%     MEMORY",
        "  21027  InvalidatingPac  S     60.0     25 MiB",
        "  21020  swift-frontend   R     14.2    132 MiB",
        "  20994  swift-frontend   R     12.9    153 MiB",
        "  20464  swift-frontend   R     12.4    136 MiB",
        "  20993  swift-frontend   Z     11.6      0 KiB",
        "",
      ])
    #expect(statistics.frames == 3)
    #expect(statistics.writes == 24)
    // 4 layout requests to the root as the panels are added. Priming asks nothing: no pass
    // has read the view model yet. Frame 1: 16 (the root takes its size: layout and display;
    // the properties pass copies the headline, CPU and memory figures: display header, cpu,
    // memory, and the new core count's intrinsicContentSize cpu and layout root; the root's
    // layout resizes the 4 panels: layout and display each; the processes panel's layout
    // picks its rows: display). Frames 2 and 3: 6 and 4, two per changed panel: the pass that
    // read the change (properties, or layout for processes), then display.
    #expect(statistics.invalidations == 30)
    #expect(
      statistics.invalidationsByKind
        == "display 14, layout 12, properties 3, intrinsicContentSize 1")
    #expect(statistics.renders == 10)
    #expect(statistics.panelRenders == 9)
    #expect(output[3].hasPrefix("invalidating-dashboard: 3 frames from recorded, 1.0 s apart\n"))
  }

  @Test(arguments: ["header", "cpu", "memory", "processes"])
  func aViewModelChangeRedrawsOnlyThePanelThatReadsIt(panel: String) throws {
    let dashboard = Dashboard()
    dashboard.prime(with: try Samples.snapshot(1))
    dashboard.show(try Samples.snapshot(2))
    dashboard.log.removeAll()
    let model = dashboard.viewModel
    // The processes panel picks its rows in layoutSubviews() (they depend on its height); the
    // others copy what they show in updateProperties().
    var pass = "properties"
    var shown = ""
    switch panel {
    case "header":
      model.$load.accept(LoadAverage(oneMinute: 9, fiveMinutes: 8, fifteenMinutes: 7))
      shown = "vm · 2 cores · load 9.00 8.00 7.00"
    case "cpu":
      model.$coreUsage.accept([0.5, 0.25])
      shown = "cpu1 ███████░░░░░░░░░░░░░░░░░░░  25%"
    case "memory":
      model.$memory.accept(MemoryInfo(total: 24_684_092, available: 12_342_046))
      shown = "used       11.8 GiB of 23.5 GiB"
    default:
      model.$topProcesses.accept([
        ProcessUsage(id: 7, name: "sleeper", state: "S", cpuPercent: 0, residentKiB: 64)
      ])
      pass = "layout"
      shown = "      7  sleeper          S      0.0     64 KiB"
    }
    #expect(dashboard.log.entries.map(\.description) == ["\(pass) \(panel)"])
    let tick = dashboard.renderLoop.tick()
    #expect(dashboard.log.renders == [panel])
    #expect(
      dashboard.log.entries.map(\.description) == [
        "\(pass) \(panel)", "display \(panel)", "render \(panel)",
      ])
    #expect(tick.displays == 1)
    #expect(dashboard.screen.contains(shown))
  }

  @Test func aChangeTooSmallToSeeAsksNoPanelForAnything() throws {
    let dashboard = Dashboard()
    dashboard.prime(with: try Samples.snapshot(1))
    dashboard.show(try Samples.snapshot(2))
    dashboard.log.removeAll()
    let model = dashboard.viewModel
    // A kibibyte less available memory, and a busy share a hundredth of a percent higher: the
    // computed properties give the values they held, and end the propagation there.
    model.$memory.modify { $0.available -= 1 }
    model.$totalUsage.modify { $0 += 0.0001 }
    #expect(dashboard.log.entries.isEmpty)
    #expect(dashboard.renderLoop.tick().isIdle)
  }

  @Test func thePanelsFollowWhatTheirPassesReadWithNoBinding() throws {
    let dashboard = Dashboard()
    dashboard.prime(with: try Samples.snapshot(1))
    dashboard.show(try Samples.snapshot(2))
    let root = dashboard.rootView
    func followed(_ view: HeadlessView) -> [Int] {
      TrackedPass.allCases.map { view.trackedDependencyCount(of: $0) }
    }
    // [updateProperties, layout, display]: what each pass read of the view model. The
    // renders read only the panels' own properties, which invalidate them already.
    #expect(followed(root.header) == [1, 0, 0])
    #expect(followed(root.cpu) == [2, 0, 0])
    #expect(followed(root.memory) == [1, 0, 0])
    #expect(followed(root.processes) == [0, 1, 0])
    #expect(followed(root) == [0, 0, 0])
  }

  @Test func aNewCoreCountAsksTheRootForOneLayout() throws {
    let dashboard = Dashboard()
    dashboard.prime(with: try Samples.snapshot(1))
    dashboard.show(try Samples.snapshot(2))
    dashboard.log.removeAll()
    dashboard.viewModel.$coreUsage.accept([0.5, 0.5, 0.5])
    dashboard.renderLoop.tick()
    // The root reads the CPU panel's height untracked: the panel's intrinsicContentSize
    // invalidation is the one request.
    #expect(dashboard.log.entries.filter { $0.view == "root" }.map(\.event) == ["layout"])
    #expect(dashboard.rootView.cpu.frame == ViewRect(x: 0, y: 2, width: 40, height: 5))
    #expect(dashboard.screen.contains("cpu2 █████████████░░░░░░░░░░░░░  50%"))
  }

  @Test func aDirectoryThatIsNotProcFallsBackToSimulatedReadings() {
    var options = DashboardOptions()
    options.procPath = "/nonexistent"
    let (source, notice) = DashboardRunner.source(for: options)
    #expect(source.name == "simulated")
    #expect(notice == "cannot read /nonexistent/stat: using simulated readings")
  }

  @Test func optionsAreParsedAndBadOnesRefused() throws {
    let options = try DashboardOptions(parsing: ["--frames", "3", "--interval", "0.5", "--live"])
    #expect(options.frames == 3)
    #expect(options.interval == 0.5)
    #expect(options.live)
    #expect(throws: DashboardOptions.UsageError(description: "unknown option --fast")) {
      try DashboardOptions(parsing: ["--fast"])
    }
    #expect(throws: DashboardOptions.UsageError(description: "--frames needs a value")) {
      try DashboardOptions(parsing: ["--frames"])
    }
  }

  @Test func withoutFramesThePrintedModeDrawsFiveAndTheLiveModeRunsUntilQuit() throws {
    #expect(try DashboardOptions(parsing: ["--live"]).frames == nil)
    #expect(DashboardOptions.printedFrames == 5)
    var printed: [String] = []
    DashboardRunner.run(
      options: DashboardOptions(), source: SimulatedSource(), pause: { _ in },
      output: { printed.append($0) })
    #expect(printed.count == 6)
    #expect(printed[4].hasPrefix("frame 5/5 · redrew "))
    #expect(DashboardOptions.usage.contains("(default 5; --live: until q)"))
  }

  @Test(arguments: ["inf", "-inf", "nan", "1e19", "1e300", "1e10", "3600.5", "-0.5"])
  func anIntervalThatIsNotANumberOfSecondsUpToAnHourIsRefused(interval: String) {
    #expect(
      throws: DashboardOptions.UsageError(
        description: "--interval needs a number of seconds from 0 to 3600")
    ) {
      try DashboardOptions(parsing: ["--interval", interval])
    }
  }

  @Test func theIntervalsAtEitherEndOfTheRangeAreAccepted() throws {
    #expect(try DashboardOptions(parsing: ["--interval", "0"]).interval == 0)
    #expect(try DashboardOptions(parsing: ["--interval", "3600"]).interval == 3600)
    #expect(DashboardOptions.usage.contains("--interval SECONDS  time between readings, 0 to 3600"))
  }

  @Test(arguments: ["inf", "1e19", "1e300", "1e10"])
  func theCommandRefusesAnAbsurdIntervalWithExitStatus2(interval: String) throws {
    // The command as a user runs it: it used to stop on "Double value cannot be converted to
    // Int" (inf, 1e19, 1e300) or sleep until killed (1e10).
    let (status, errors) = try Self.runDashboard(["--simulated", "--interval", interval])
    #expect(status == 2)
    #expect(
      errors.hasPrefix(
        "invalidating-dashboard: --interval needs a number of seconds from 0 to 3600\n"))
    #expect(errors.contains("usage: invalidating-dashboard"))
  }

  /// Runs the demo's executable, built next to the test runner, with `arguments`; returns its
  /// exit status and what it wrote to standard error.
  private static func runDashboard(_ arguments: [String]) throws -> (Int32, String) {
    let runner = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    let binaries = runner.resolvingSymlinksInPath().deletingLastPathComponent()
    let process = Process()
    process.executableURL = binaries.appendingPathComponent("invalidating-dashboard")
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  private static func trimmingTrailingSpaces(_ line: Substring) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return String(line)
  }
}
