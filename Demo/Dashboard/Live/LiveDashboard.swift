import Invalidating

/// The full-screen mode, apart from the terminal: the screen's size and the events of a run
/// (a reading is due, the terminal changed size) in, text at places on the screen out.
///
/// ``start()`` takes the first reading, which usage is measured from. Each ``takeReading()``
/// then draws a frame: the whole screen the first time, afterwards only the panels the reading
/// redrew. ``screenDidResize()`` gives the root view the screen's new size: the root lays the
/// panels out again, the render loop redraws those whose frame changed size, and the screen is
/// written anew (a terminal does not move what it shows when its size changes).
///
/// The root view takes the screen but its last two rows: a blank one, and a status line that
/// names what the last frame redrew, cut to the screen's width before the quit key's name so
/// that the name stays in view. A screen too small for the header, CPU and memory panels
/// (``minimumSize(coreCount:)``) shows "terminal too small" and the size it needs instead of
/// the panels, until it is resized; readings go on meanwhile. A screen with too few rows left
/// for the processes panel shows the other panels only.
///
/// ```swift
/// let live = LiveDashboard(source: SimulatedSource(), screen: terminal, frameLimit: 10)
/// guard try live.start() else { return }
/// // Every second:               try live.takeReading()    (nil: the run is over)
/// // When the terminal resizes:  live.screenDidResize()
/// ```
@MainActor
public final class LiveDashboard {
  /// How many of the busiest processes the view model lists: more than a tall terminal shows.
  /// The processes panel shows as many as its height holds.
  public static let processLimit = 100

  /// The views, their view model and their render loop.
  public let dashboard: Dashboard
  /// Where readings come from.
  public let source: SystemSource
  /// Where the dashboard is drawn.
  public let screen: LiveScreen
  /// How many frames of readings to draw, or `nil` to draw until the run is stopped from
  /// outside (a key).
  public let frameLimit: Int?
  /// The screen's size, as last read.
  public private(set) var size: TerminalSize
  /// Whether the run is over: the frame limit was reached or the source ran out.
  public private(set) var isFinished = false
  /// The status line, as last written.
  public private(set) var status = ""
  private var framesDrawn = 0

  /// Creates a live dashboard of `source` on `screen`, at the screen's current size.
  ///
  /// - Parameters:
  ///   - source: Where readings come from.
  ///   - screen: Where the dashboard is drawn.
  ///   - frameLimit: How many frames of readings to draw, or `nil` for no limit.
  public init(source: SystemSource, screen: LiveScreen, frameLimit: Int? = nil) {
    self.source = source
    self.screen = screen
    self.frameLimit = frameLimit
    dashboard = Dashboard(processLimit: Self.processLimit)
    size = screen.size
    dashboard.size = Self.rootSize(for: size)
  }

  /// Takes the first reading, which usage is measured from, and says so on the screen.
  ///
  /// - Returns: `false` when the source has no reading: the run is over.
  /// - Throws: The source's error.
  public func start() throws -> Bool {
    guard let first = try source.nextSnapshot() else {
      isFinished = true
      return false
    }
    dashboard.prime(with: first)
    writeWaitingLine()
    return true
  }

  /// Takes a reading and draws what it changed: the whole screen for the first frame, then
  /// the panels the reading redrew.
  ///
  /// Called once per interval. Once ``frameLimit`` frames are drawn, the next call takes no
  /// reading and ends the run, so that the last frame stays on the screen for an interval too.
  ///
  /// - Returns: What the frame redrew, or `nil` when the run is over: the frame limit was
  ///   reached or the source ran out.
  /// - Throws: The source's error.
  @discardableResult
  public func takeReading() throws -> Dashboard.Frame? {
    if let frameLimit, framesDrawn >= frameLimit { isFinished = true }
    guard !isFinished, let snapshot = try source.nextSnapshot() else {
      isFinished = true
      return nil
    }
    framesDrawn += 1
    let frame = dashboard.show(snapshot)
    if framesDrawn == 1 {
      writeWholeScreen()
    } else if !isTooSmall {
      for panel in dashboard.rootView.panels where frame.redrawn.contains(panel.name) {
        write(panel)
      }
    }
    let number = frameLimit.map { "\(framesDrawn)/\($0)" } ?? "\(framesDrawn)"
    writeStatus("frame \(number) · \(source.name) · redrew \(frame.redrawnDescription)")
    return frame
  }

  /// Reads the screen's size and, when it changed, follows it.
  ///
  /// The root view takes the new size; before the first frame, that is all (the first frame
  /// is drawn at it). Afterwards the render loop ticks: the root lays the panels out again,
  /// each panel whose frame changed size lays out and redraws, the others keep their output,
  /// and the whole screen is written from the views' output.
  ///
  /// - Returns: What the resize redrew, or `nil` when the size is the same or no frame was
  ///   drawn yet.
  @discardableResult
  public func screenDidResize() -> Dashboard.Frame? {
    let newSize = screen.size
    guard newSize != size, !isFinished else { return nil }
    size = newSize
    guard framesDrawn > 0 else {
      dashboard.size = Self.rootSize(for: size)
      writeWaitingLine()
      return nil
    }
    let frame = dashboard.resize(to: Self.rootSize(for: size))
    writeWholeScreen()
    writeStatus("resized to \(size) · \(source.name) · redrew \(frame.redrawnDescription)")
    return frame
  }

  /// The smallest screen that shows the header, CPU and memory panels of a machine with
  /// `coreCount` cores, with the status rows: 60 columns, and the rows above the processes
  /// panel and two.
  ///
  /// - Parameter coreCount: The machine's cores, as the view model counts them.
  /// - Returns: The size; a smaller screen in either direction shows "terminal too small".
  public static func minimumSize(coreCount: Int) -> TerminalSize {
    let top = DashboardView.processesTop(cpuHeight: CPUPanelView.height(coreCount: coreCount))
    return TerminalSize(columns: 60, rows: Int(top) + 2)
  }

  /// Whether the screen, as last read, is smaller than ``minimumSize(coreCount:)`` for this
  /// machine: it then shows "terminal too small" instead of the panels.
  public var isTooSmall: Bool {
    let minimum = Self.minimumSize(coreCount: dashboard.viewModel.coreCount.value)
    return size.columns < minimum.columns || size.rows < minimum.rows
  }

  /// `text` and the quit key's name, cut to `columns`: the end of `text` gives way to "…" so
  /// that " · q quits" stays whole while it fits.
  ///
  /// - Parameters:
  ///   - text: What the line says before the quit key.
  ///   - columns: The screen's width.
  /// - Returns: The line, at most `columns` characters long.
  public static func statusLine(_ text: String, columns: Int) -> String {
    let quit = " · q quits"
    let line = text + quit
    guard line.count > columns else { return line }
    guard columns > quit.count + 1 else { return String("q quits".prefix(max(0, columns))) }
    return String(text.prefix(columns - quit.count - 1)) + "…" + quit
  }

  /// What the engine did so far.
  public var statistics: DashboardStatistics { dashboard.statistics }

  /// The root view's size on a screen of `size`: all of it but the blank row and the status
  /// line at the bottom.
  public static func rootSize(for size: TerminalSize) -> ViewSize {
    ViewSize(width: Double(max(0, size.columns)), height: Double(max(0, size.rows - 2)))
  }

  private var statusRow: Int { max(0, size.rows - 1) }

  /// The line shown until the first frame: usage needs a second reading.
  private func writeWaitingLine() {
    screen.clear()
    writeStatus("reading \(source.name)", row: 0)
  }

  /// Clears the screen and writes every view's output, or, on a screen too small for them,
  /// says so.
  private func writeWholeScreen() {
    screen.clear()
    guard !isTooSmall else {
      let minimum = Self.minimumSize(coreCount: dashboard.viewModel.coreCount.value)
      let message: [Substring] = ["terminal too small", "needs \(minimum)"]
      screen.write(
        lines: Array(message.prefix(max(0, size.rows - 2))), row: 0, column: 0,
        width: size.columns)
      return
    }
    let lines = dashboard.screen.split(separator: "\n", omittingEmptySubsequences: false)
    let height = Int(dashboard.rootView.bounds.height)
    screen.write(lines: Array(lines.prefix(height)), row: 0, column: 0, width: size.columns)
  }

  /// Writes one panel's latest output over its area, clipped to the root view.
  private func write(_ panel: PanelView) {
    let frame = panel.frame
    let (top, height) = (Int(frame.minY), Int(frame.height))
    let visible = min(height, Int(dashboard.rootView.bounds.height) - top)
    guard visible > 0 else { return }
    var lines = panel.renderedText.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.count < visible { lines += Array(repeating: "", count: visible - lines.count) }
    screen.write(
      lines: Array(lines.prefix(visible)), row: top, column: Int(frame.minX),
      width: Int(frame.width))
  }

  private func writeStatus(_ text: String, row: Int? = nil) {
    status = Self.statusLine(text, columns: size.columns)
    screen.write(
      lines: [Substring(status)], row: row ?? statusRow, column: 0, width: size.columns)
  }
}
