/// Runs the dashboard without a terminal of its own: a number of frames, each printed in full
/// with the panels it redrew, then the statistics. The executable's default mode, and what the
/// tests run on recorded readings.
@MainActor
public enum DashboardRunner {
  /// The source the options ask for, and a notice when it had to fall back to simulation.
  ///
  /// - Parameter options: The command line.
  /// - Returns: Simulated readings when asked for or when the `/proc` directory cannot be
  ///   read (with a notice saying why), live readings otherwise.
  public static func source(for options: DashboardOptions) -> (SystemSource, notice: String?) {
    if options.simulated { return (SimulatedSource(), nil) }
    let directory = ProcDirectory(path: options.procPath)
    do {
      let first = try directory.snapshot()
      return (LiveSource(directory: directory, firstReading: first), nil)
    } catch {
      return (SimulatedSource(), "\(error): using simulated readings")
    }
  }

  /// Draws up to `options.frames` frames (``DashboardOptions/printedFrames`` by default) from
  /// `source`, one reading each, and returns what the engine did.
  ///
  /// A first reading primes the usage figures and is not drawn. Each frame is reported as a
  /// line naming the panels it redrew, followed by the screen; the run ends early when the
  /// source runs out or fails.
  ///
  /// - Parameters:
  ///   - options: The frame count and the interval between readings.
  ///   - source: Where readings come from.
  ///   - pause: Waits the given number of seconds between readings.
  ///   - output: Prints a block of text.
  /// - Returns: The statistics of the run.
  @discardableResult
  public static func run(
    options: DashboardOptions, source: SystemSource, pause: (Double) -> Void,
    output: (String) -> Void
  ) -> DashboardStatistics {
    let dashboard = Dashboard()
    let frames = options.frames ?? DashboardOptions.printedFrames
    do {
      guard let first = try source.nextSnapshot() else {
        output("\(source.name): no readings")
        return dashboard.statistics
      }
      dashboard.prime(with: first)
      for number in 1...frames {
        pause(options.interval)
        guard let snapshot = try source.nextSnapshot() else { break }
        let frame = dashboard.show(snapshot)
        output(
          "frame \(number)/\(frames) · redrew \(frame.redrawnDescription)\n"
            + "\(dashboard.screen)\n")
      }
    } catch {
      output("\(source.name): \(error)")
    }
    let statistics = dashboard.statistics
    output(statistics.report(source: source.name, interval: options.interval))
    return statistics
  }
}
