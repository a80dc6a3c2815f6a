import Dispatch
import InvalidatingDashboard

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The full-screen mode: a ``LiveDashboard`` on the terminal, driven by three dispatch sources
/// on the main queue (readings on a timer, keys, and the terminal's resize signal), until `q`
/// (or Ctrl-C) is pressed, `--frames` frames were drawn, or the source runs out or fails.
@MainActor
final class LiveMode {
  private let terminal: LiveTerminal
  private let live: LiveDashboard
  private let interval: Double
  private var sources: [any DispatchSourceProtocol] = []
  private var timer: (any DispatchSourceTimer)?
  private var finished: CheckedContinuation<Void, Never>?

  /// Prepares a run of `source` on `terminal`.
  ///
  /// - Parameters:
  ///   - terminal: The terminal, in full-screen mode.
  ///   - source: Where readings come from.
  ///   - options: The interval between readings and the number of frames (`nil`: no limit).
  init(terminal: LiveTerminal, source: SystemSource, options: DashboardOptions) {
    self.terminal = terminal
    interval = options.interval
    live = LiveDashboard(source: source, screen: terminal, frameLimit: options.frames)
  }

  /// Runs until the run is over; restores the terminal and returns the statistics.
  func run() async -> DashboardStatistics {
    defer { terminal.restore() }
    do {
      guard try live.start() else { return live.statistics }
    } catch {
      fail(error)
      return live.statistics
    }
    await withCheckedContinuation { continuation in
      finished = continuation
      listen()
    }
    return live.statistics
  }

  /// Starts the three sources. Their handlers run on the main queue, which is the main actor's.
  private func listen() {
    // A signal source reports the signal next to its disposition, not instead of it: ignore it
    // first, as dispatch asks, so that only the source acts on it.
    signal(SIGWINCH, SIG_IGN)
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    resize.setEventHandler { [weak self] in
      MainActor.assumeIsolated { _ = self?.live.screenDidResize() }
    }
    let keys = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    keys.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.readKeys() }
    }
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.takeReading() }
    }
    self.timer = timer
    sources = [resize, keys, timer]
    scheduleReading()
    for source in sources { source.activate() }
  }

  /// Usage is measured between readings: each one waits a whole interval after the last.
  private func scheduleReading() {
    timer?.schedule(deadline: .now() + .nanoseconds(Int((interval * 1e9).rounded())))
  }

  private func readKeys() {
    // `q`, `Q`, Ctrl-C and Escape alone; an arrow key's escape sequence does not quit.
    if LiveKeys.action(for: terminal.readKeys()) == .quit { stop() }
  }

  private func takeReading() {
    do {
      guard try live.takeReading() != nil else { return stop() }
      scheduleReading()
    } catch {
      fail(error)
      stop()
    }
  }

  /// Leaves full-screen mode and says why the source failed.
  private func fail(_ error: any Error) {
    terminal.restore()
    print("invalidating-dashboard: \(live.source.name): \(error)")
  }

  /// Ends the run: cancels the sources and resumes ``run()``.
  private func stop() {
    for source in sources { source.cancel() }
    sources = []
    timer = nil
    finished?.resume()
    finished = nil
  }
}
