import Invalidating

/// The busiest processes, one row each, as many as the panel's height holds.
@MainActor
public final class ProcessPanelView: PanelView {
  /// The rows to show, busiest first.
  @ViewInvalidating(.display) public var rows: [ProcessRow] = []

  /// Creates a panel that shows `model`'s busiest processes.
  ///
  /// - Parameters:
  ///   - model: The view model the panel reads.
  ///   - log: Where the view reports.
  public init(model: SystemViewModel, log: InvalidationLog) {
    super.init(name: "processes", model: model, log: log)
  }

  /// How many rows the panel's height holds, below the title and the column names.
  public var visibleRowCount: Int { max(0, Int(bounds.height) - 2) }

  /// Picks the rows that fit from the view model's list.
  ///
  /// Which rows show depends on the panel's height, so the pick is made here, where a new
  /// size lands, rather than in `updateProperties()`; the pass reads the list, so a reading
  /// that changes it asks for layout again. A change below the rows that fit changes nothing
  /// shown, and the panel is not redrawn.
  override public func layoutSubviews() {
    rows = Array(model.processRows.value.prefix(visibleRowCount))
  }

  /// The title, the column names, then one row per process; the name column takes the width
  /// the others leave.
  override public func content() -> String {
    let nameWidth = max(8, Int(bounds.width) - 63)
    let heading =
      TextLayout.fit("PID", 7, alignRight: true) + "  " + TextLayout.fit("NAME", nameWidth)
      + TextLayout.fit("S", 3) + TextLayout.fit("CPU%", 7, alignRight: true)
      + TextLayout.fit("MEMORY", 11, alignRight: true)
    let lines = rows.map { row in
      TextLayout.fit(String(row.id), 7, alignRight: true) + "  "
        // A name cut short keeps a space before the state: kernel threads' names run long.
        + TextLayout.fit(TextLayout.fit(row.name, nameWidth - 1), nameWidth)
        + TextLayout.fit(String(row.state), 3)
        + TextLayout.fit(row.cpu, 7, alignRight: true)
        + TextLayout.fit(row.memory, 11, alignRight: true)
    }
    return (["Top processes", heading] + lines).joined(separator: "\n")
  }
}
