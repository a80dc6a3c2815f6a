import Invalidating

/// Memory in use, as a figure and a bar as wide as the panel, with what is available and
/// cached.
@MainActor
public final class MemoryPanelView: PanelView {
  /// The figures to show.
  @ViewInvalidating(.display)
  public var summary = MemorySummary(MemoryInfo(total: 0, available: 0))

  /// The panel's height, in rows.
  public static let height = 5.0

  /// Creates a panel that shows `model`'s memory figures.
  ///
  /// - Parameters:
  ///   - model: The view model the panel reads.
  ///   - log: Where the view reports.
  public init(model: SystemViewModel, log: InvalidationLog) {
    super.init(name: "memory", model: model, log: log)
  }

  /// Copies the view model's figures.
  override public func updateProperties() {
    summary = model.memorySummary.value
  }

  /// The title, the used figure and bar, then available and cached memory.
  override public func content() -> String {
    // A label column, the bar, the figure, and a margin of 4 columns on the right.
    let barWidth = max(0, Int(bounds.width) - 20)
    return [
      "Memory",
      TextLayout.fit("used", 11) + summary.used + " of " + summary.total,
      String(repeating: " ", count: 11)
        + TextLayout.bar(percent: summary.usedPercent, width: barWidth)
        + TextLayout.fit("\(summary.usedPercent)%", 5, alignRight: true),
      TextLayout.fit("available", 11) + summary.available,
      TextLayout.fit("cache", 11) + summary.cache,
    ].joined(separator: "\n")
  }
}
