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
    // 4 layout requests to the root as the panels are added; 6 as the first reading is
    // primed; 13 in frame 1 (3 from the bindings, 2 as the root takes its size, 8 as the
    // root's layout sizes the panels); then 3 and 2, one per changed panel.
    #expect(statistics.invalidations == 28)
    #expect(statistics.invalidationsByKind == "display 17, layout 10, intrinsicContentSize 1")
    #expect(statistics.renders == 10)
    #expect(statistics.panelRenders == 9)
    #expect(output[3].hasPrefix("invalidating-dashboard: 3 frames from recorded, 1.0 s apart\n"))
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
