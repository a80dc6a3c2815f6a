import Invalidating

/// One bar per core, and one for all cores together, as wide as the panel.
@MainActor
public final class CPUPanelView: PanelView {
  /// The figures to show.
  @ViewInvalidating(.display) public var summary = CPUSummary(corePercents: [], totalPercent: 0)
  /// How many cores there are: the panel's height depends on it.
  @ViewInvalidating(.intrinsicContentSize) public var coreCount = 0

  /// Creates a panel that shows `model`'s CPU figures.
  ///
  /// - Parameters:
  ///   - model: The view model the panel reads.
  ///   - log: Where the view reports.
  public init(model: SystemViewModel, log: InvalidationLog) {
    super.init(name: "cpu", model: model, log: log)
  }

  /// Copies the view model's figures; a reading that changes neither asks for nothing more.
  override public func updateProperties() {
    coreCount = model.coreCount.value
    summary = model.cpuSummary.value
  }

  /// A title row, a row per core and a row for all cores; as wide as its superview makes it.
  override public var intrinsicContentSize: ViewSize {
    ViewSize(width: Self.noIntrinsicMetric, height: Self.height(coreCount: coreCount))
  }

  /// The panel's height for `coreCount` cores: a title row, a row per core and a row for all.
  ///
  /// - Parameter coreCount: How many cores the panel shows.
  /// - Returns: The height, in rows.
  public static func height(coreCount: Int) -> Double {
    Double(coreCount + 2)
  }

  /// The title and the bars.
  override public func content() -> String {
    // A label, the bar, the figure, and a gap of 4 columns before the next panel.
    let barWidth = max(0, Int(bounds.width) - 14)
    func row(_ label: String, _ percent: Int) -> String {
      TextLayout.fit(label, 5) + TextLayout.bar(percent: percent, width: barWidth)
        + TextLayout.fit("\(percent)%", 5, alignRight: true)
    }
    let rows = summary.corePercents.enumerated().map { core, percent in row("cpu\(core)", percent) }
    return (["CPU"] + rows + [row("all", summary.totalPercent)]).joined(separator: "\n")
  }
}
