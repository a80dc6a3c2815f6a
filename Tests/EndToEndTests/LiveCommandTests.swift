import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `invalidating-dashboard --live` as a user runs it, in a terminal: the executable, on a
/// pseudo-terminal the test reads, types into and resizes.
@Suite struct LiveCommandTests {
  @Test func withFramesTheLiveModeStopsByItselfAfterThatManyFrames() throws {
    let terminal = try PseudoTerminal(columns: 100, rows: 30)
    let process = try Self.startDashboard(
      ["--live", "--simulated", "--interval", "0", "--frames", "3"], on: terminal)
    terminal.readToEnd()
    process.waitUntilExit()

    #expect(process.terminationStatus == 0)
    #expect(terminal.output.contains("frame 3/3 · simulated · redrew "))
    #expect(!terminal.output.contains("frame 4/3"))
    #expect(
      terminal.output.contains("invalidating-dashboard: 3 frames from simulated, 0.0 s apart"))
  }

  @Test func onSIGWINCHTheLiveModeRedrawsAtTheTerminalsNewSize() throws {
    let terminal = try PseudoTerminal(columns: 100, rows: 30)
    let process = try Self.startDashboard(
      ["--live", "--simulated", "--interval", "0.05"], on: terminal)
    #expect(terminal.readOutput { $0.contains("frame 1 · simulated · redrew ") })

    terminal.resize(columns: 80, rows: 24)
    kill(process.processIdentifier, SIGWINCH)
    #expect(
      terminal.readOutput {
        $0.contains("resized to 80x24 · simulated · redrew header, cpu, memory, processes")
      })
    terminal.type("q")
    terminal.readToEnd()
    process.waitUntilExit()

    #expect(process.terminationStatus == 0)
    // The terminal's settings are back: a newline is written as a carriage return and one.
    #expect(terminal.output.contains(" s apart, 1 resize\r\n"))
  }

  @Test func escapeAloneQuitsTheLiveMode() throws {
    let terminal = try PseudoTerminal(columns: 100, rows: 30)
    let process = try Self.startDashboard(
      ["--live", "--simulated", "--interval", "0.05"], on: terminal)
    #expect(terminal.readOutput { $0.contains("frame 1 · simulated · redrew ") })
    terminal.type("\u{1B}")
    terminal.readToEnd()
    process.waitUntilExit()

    #expect(process.terminationStatus == 0)
    #expect(terminal.output.contains("invalidating-dashboard: "))
  }

  /// Starts the demo's executable, built next to the test runner, on `terminal`.
  private static func startDashboard(
    _ arguments: [String], on terminal: PseudoTerminal
  ) throws -> Process {
    let runner = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    let binaries = runner.resolvingSymlinksInPath().deletingLastPathComponent()
    let process = Process()
    process.executableURL = binaries.appendingPathComponent("invalidating-dashboard")
    process.arguments = arguments
    process.standardInput = terminal.programSide
    process.standardOutput = terminal.programSide
    process.standardError = terminal.programSide
    try process.run()
    terminal.closeSecondary()
    return process
  }
}
