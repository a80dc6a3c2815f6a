import InvalidatingDashboard
import Testing

/// A terminal screen in memory, for ``LiveDashboard``: a grid of characters whose size a test
/// sets, as a terminal window resized by its user.
///
/// Like a terminal's alternate screen, a resize keeps what fits and blanks what is new. A
/// write that does not fit on the screen is a test failure: the dashboard must keep to the
/// size it was told.
@MainActor
final class VirtualScreen: LiveScreen {
  private(set) var size: TerminalSize
  private var cells: [[Character]]
  /// How many times the whole screen was cleared.
  private(set) var clears = 0
  /// The rows written since the counts were last reset, in order.
  private(set) var writtenRows: [Int] = []

  init(columns: Int, rows: Int) {
    size = TerminalSize(columns: columns, rows: rows)
    cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
  }

  /// Changes the size as a user resizing the window does; the dashboard hears of it only when
  /// the test says so (the signal).
  func resize(columns: Int, rows: Int) {
    size = TerminalSize(columns: columns, rows: rows)
    cells = (0..<rows).map { row in
      (0..<columns).map { column in
        row < cells.count && column < cells[row].count ? cells[row][column] : " "
      }
    }
  }

  func clear() {
    clears += 1
    cells = Array(
      repeating: Array(repeating: " ", count: size.columns), count: size.rows)
  }

  func write(lines: [Substring], row: Int, column: Int, width: Int) {
    for (offset, line) in lines.enumerated() {
      let y = row + offset
      guard y >= 0, y < size.rows, column >= 0, column + width <= size.columns else {
        Issue.record("a write of \(width) columns at \(column), row \(y), off a \(size) screen")
        continue
      }
      writtenRows.append(y)
      let text = Array(TextLayout.fit(String(line), width))
      for index in 0..<width { cells[y][column + index] = text[index] }
    }
  }

  /// Forgets the writes and clears counted so far.
  func resetCounts() {
    clears = 0
    writtenRows = []
  }

  /// The screen, one string per row, trailing spaces kept.
  var lines: [String] { cells.map { String($0) } }

  /// The screen, one string per row, trailing spaces removed.
  var trimmedLines: [String] {
    cells.map { row in
      var row = row[...]
      while row.last == " " { row.removeLast() }
      return String(row)
    }
  }
}
