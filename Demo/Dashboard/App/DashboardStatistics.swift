/// What the engine did during a run of the dashboard, from the sampler's writes to the views'
/// renders.
public struct DashboardStatistics: Hashable, Sendable {
  /// Readings drawn.
  public var frames: Int
  /// Readings taken: the frames, and the first reading that usage is measured from.
  public var readings: Int
  /// Panels on the screen.
  public var panels: Int
  /// Values written to the view model's `@ReadWrite` state, changed or not.
  public var writes: Int
  /// Invalidation requests that reached a view, after the engine's deduplication, by kind
  /// (`layout`, `display`, `intrinsicContentSize`).
  public var invalidationsByEvent: [String: Int]
  /// Display passes the render loop ran, the root view's included.
  public var renders: Int
  /// Display passes of the panels alone (the root view draws nothing and renders once).
  public var panelRenders: Int

  /// Invalidation requests that reached a view, after the engine's deduplication.
  public var invalidations: Int { invalidationsByEvent.values.reduce(0, +) }

  /// How many requests of each kind, as `display 7, layout 5`, most frequent first.
  public var invalidationsByKind: String {
    invalidationsByEvent.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
  }

  /// What the demo prints on exit: a line naming the run, then ``summary``.
  ///
  /// - Parameters:
  ///   - source: The name of the source of readings.
  ///   - interval: The seconds between readings.
  public func report(source: String, interval: Double) -> String {
    "invalidating-dashboard: \(frames) frames from \(source), "
      + "\(TextLayout.fixed(interval, digits: 1)) s apart\n" + summary
  }

  /// The summary the demo prints on exit, one figure per line.
  public var summary: String {
    let panelFrames = frames * panels
    let skipped = max(0, panelFrames - panelRenders)
    func line(_ label: String, _ count: Int, _ detail: String) -> String {
      "  " + TextLayout.fit(label, 25) + TextLayout.fit(String(count), 6, alignRight: true)
        + "   " + detail
    }
    return [
      line("writes received", writes, "view-model state written over \(readings) readings"),
      line("invalidations requested", invalidations, invalidationsByKind),
      line(
        "renders performed", renders,
        "\(panelRenders) of \(panelFrames) panel frames redrawn, \(skipped) skipped"),
    ].joined(separator: "\n")
  }
}
