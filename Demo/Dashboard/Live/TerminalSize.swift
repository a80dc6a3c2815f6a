/// The size of a terminal, in character cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
  /// Characters per row.
  public var columns: Int
  /// Rows on the screen.
  public var rows: Int

  /// Creates a size.
  ///
  /// - Parameters:
  ///   - columns: Characters per row.
  ///   - rows: Rows on the screen.
  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  /// `80x24`: columns, then rows.
  public var description: String { "\(columns)x\(rows)" }
}
