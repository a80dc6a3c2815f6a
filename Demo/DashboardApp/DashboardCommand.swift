import InvalidatingDashboard

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The command: parses the options, picks a source, runs the plain or the live mode.
@MainActor
enum DashboardCommand {
  /// Runs the command and returns its exit status.
  static func run(arguments: [String]) async -> Int32 {
    let options: DashboardOptions
    let trace = DashboardTrace(arguments)
    do {
      options = try DashboardOptions(parsing: trace.otherArguments)
    } catch {
      printError(
        "invalidating-dashboard: \(error)\n\n\(DashboardOptions.usage)\(DashboardTrace.usage)")
      return 2
    }
    if options.help {
      print(DashboardOptions.usage + DashboardTrace.usage)
      return 0
    }
    let (source, notice) = DashboardRunner.source(for: options)
    if let notice { printError("invalidating-dashboard: \(notice)") }
    guard options.live else {
      trace.run { output in
        DashboardRunner.run(options: options, source: source, pause: pause, output: output)
      }
      return 0
    }
    guard !trace.isRequested else {
      printError("invalidating-dashboard: --trace and --dot print frames, not a live screen")
      return 2
    }
    guard let terminal = LiveTerminal() else {
      printError("invalidating-dashboard: --live needs a terminal on standard input and output")
      return 1
    }
    let statistics = await LiveMode(terminal: terminal, source: source, options: options).run()
    print(statistics.report(source: source.name, interval: options.interval))
    return 0
  }

  /// Sleeps for `seconds`.
  static func pause(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(
      tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }

  private static func printError(_ message: String) {
    writeAll(message + "\n", to: STDERR_FILENO)
  }
}
