import Invalidating

/// One bar per core, and one for all cores together.
@MainActor
public final class CPUPanelView: PanelView {
  /// Each core's usage, in whole percent.
  @ViewInvalidating(.display) public var corePercents: [Int] = []
  /// All cores' usage, in whole percent.
  @ViewInvalidating(.display) public var totalPercent = 0
  /// How many cores there are: the panel's height depends on it.
  @ViewInvalidating(.intrinsicContentSize) public var coreCount = 0

  /// The width of the panel, in characters.
  public static let width = 40

  /// Creates an empty panel.
  ///
  /// - Parameter log: Where the view reports.
  public init(log: InvalidationLog) {
    super.init(name: "cpu", log: log)
  }

  /// A title row, a row per core and a row for all cores.
  override public var intrinsicContentSize: ViewSize {
    ViewSize(width: Double(Self.width), height: Double(coreCount + 2))
  }

  /// The title and the bars.
  override public func content() -> String {
    let rows = corePercents.enumerated().map { core, percent in row("cpu\(core)", percent) }
    return (["CPU"] + rows + [row("all", totalPercent)]).joined(separator: "\n")
  }

  private func row(_ label: String, _ percent: Int) -> String {
    TextLayout.fit(label, 5) + TextLayout.bar(percent: percent, width: 26)
      + TextLayout.fit("\(percent)%", 5, alignRight: true)
  }
}
