import Invalidating

/// The busiest processes, one row each.
@MainActor
public final class ProcessPanelView: PanelView {
  /// The rows to show, busiest first.
  @ViewInvalidating(.display) public var rows: [ProcessRow] = []

  /// Creates an empty panel.
  ///
  /// - Parameter log: Where the view reports.
  public init(log: InvalidationLog) {
    super.init(name: "processes", log: log)
  }

  /// The title, the column names, then one row per process.
  override public func content() -> String {
    let heading =
      TextLayout.fit("PID", 7, alignRight: true) + "  " + TextLayout.fit("NAME", 17)
      + TextLayout.fit("S", 3) + TextLayout.fit("CPU%", 7, alignRight: true)
      + TextLayout.fit("MEMORY", 11, alignRight: true)
    let lines = rows.map { row in
      TextLayout.fit(String(row.id), 7, alignRight: true) + "  " + TextLayout.fit(row.name, 17)
        + TextLayout.fit(String(row.state), 3) + TextLayout.fit(row.cpu, 7, alignRight: true)
        + TextLayout.fit(row.memory, 11, alignRight: true)
    }
    return (["Top processes", heading] + lines).joined(separator: "\n")
  }
}
