/// What the engine did during a run of the dashboard, from the sampler's writes to the views'
/// renders.
public struct DashboardStatistics: Hashable, Sendable {
  /// Readings drawn.
  public var frames: Int
  /// Readings taken: the frames, and the first reading that usage is measured from.
  public var readings: Int
  /// Frames drawn because the terminal changed size, in live mode.
  public var resizes: Int
  /// Panels on the screen.
  public var panels: Int
  /// Values written to the view model's `@ReadWrite` state, changed or not.
  public var writes: Int
  /// Invalidation requests that reached a view, by kind: `properties`, `layout`, `display`,
  /// `intrinsicContentSize`. A request made by tracking counts once per batch and pass; one
  /// made by a `@ViewInvalidating` property only when the value it stores changed.
  public var invalidationsByEvent: [String: Int]
  /// Display passes the render loop ran, the root view's included.
  public var renders: Int
  /// Display passes of the panels alone (the root view draws nothing; it renders when it
  /// changes size).
  public var panelRenders: Int

  /// Invalidation requests that reached a view.
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
    func count(_ number: Int, _ noun: String) -> String {
      "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
    let resized = resizes == 0 ? "" : ", " + count(resizes, "resize")
    return "invalidating-dashboard: \(count(frames, "frame")) from \(source), "
      + "\(TextLayout.fixed(interval, digits: 1)) s apart\(resized)\n" + summary
  }

  /// The summary the demo prints on exit, one figure per line.
  public var summary: String {
    // Every frame, a reading's or a resize's, could have redrawn every panel.
    let panelFrames = (frames + resizes) * panels
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
