import Invalidating

/// Memory in use, as a figure and a bar, with what is available and cached.
@MainActor
public final class MemoryPanelView: PanelView {
  /// The figures to show.
  @ViewInvalidating(.display)
  public var summary = MemorySummary(MemoryInfo(total: 0, available: 0))

  /// The panel's size, in characters.
  public static let size = ViewSize(width: 40, height: 5)

  /// Creates an empty panel.
  ///
  /// - Parameter log: Where the view reports.
  public init(log: InvalidationLog) {
    super.init(name: "memory", log: log)
  }

  /// The title, the used figure and bar, then available and cached memory.
  override public func content() -> String {
    [
      "Memory",
      TextLayout.fit("used", 11) + summary.used + " of " + summary.total,
      String(repeating: " ", count: 11) + TextLayout.bar(percent: summary.usedPercent, width: 20)
        + TextLayout.fit("\(summary.usedPercent)%", 5, alignRight: true),
      TextLayout.fit("available", 11) + summary.available,
      TextLayout.fit("cache", 11) + summary.cache,
    ].joined(separator: "\n")
  }
}
