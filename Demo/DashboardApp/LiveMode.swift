import InvalidatingDashboard

/// The full-screen mode: draws the whole screen once, then at each reading rewrites only the
/// panels the render loop redrew, until `q` (or Ctrl-C) is pressed.
@MainActor
struct LiveMode {
  let terminal: LiveTerminal
  let source: SystemSource
  let options: DashboardOptions

  /// Runs until a quit key, or until the source runs out or fails; returns the statistics.
  func run() -> DashboardStatistics {
    let dashboard = Dashboard()
    defer { terminal.restore() }
    do {
      guard let first = try source.nextSnapshot() else { return dashboard.statistics }
      dashboard.prime(with: first)
      terminal.write(lines: ["reading \(source.name) · q quits"], row: 0, column: 0, width: 80)
      var isFirstFrame = true
      while true {
        // Usage is measured between readings: wait a whole interval before each one.
        if let key = terminal.waitForKey(seconds: options.interval), Self.quitKeys.contains(key) {
          break
        }
        guard let snapshot = try source.nextSnapshot() else { break }
        let frame = dashboard.show(snapshot)
        if isFirstFrame {
          let lines = dashboard.screen.split(separator: "\n", omittingEmptySubsequences: false)
          terminal.write(lines: lines, row: 0, column: 0, width: DashboardView.width)
          isFirstFrame = false
        } else {
          for panel in dashboard.rootView.panels where frame.redrawn.contains(panel.name) {
            draw(panel)
          }
        }
        let status =
          "frame \(frame.number) · \(source.name) · redrew \(frame.redrawnDescription) · q quits"
        terminal.write(
          lines: [Substring(status)], row: Int(dashboard.rootView.bounds.height) + 1, column: 0,
          width: DashboardView.width)
      }
    } catch {
      terminal.restore()
      print("invalidating-dashboard: \(source.name): \(error)")
    }
    return dashboard.statistics
  }

  /// `q`, `Q`, Ctrl-C and Escape.
  private static let quitKeys: Set<UInt8> = [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3, 27]

  /// Rewrites the area of one panel with its latest output.
  private func draw(_ panel: PanelView) {
    var lines = panel.renderedText.split(separator: "\n", omittingEmptySubsequences: false)
    let height = Int(panel.frame.height)
    if lines.count < height { lines += Array(repeating: "", count: height - lines.count) }
    terminal.write(
      lines: Array(lines.prefix(height)), row: Int(panel.frame.minY),
      column: Int(panel.frame.minX), width: Int(panel.frame.width))
  }
}
