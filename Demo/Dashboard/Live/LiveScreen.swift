/// A full-screen terminal as ``LiveDashboard`` uses it: where it learns the screen's size, and
/// how it writes.
///
/// The executable's terminal reads the size from the kernel (`TIOCGWINSZ`) and writes escape
/// sequences; a test gives a grid of characters whose size it changes at will.
@MainActor
public protocol LiveScreen: AnyObject {
  /// The screen's size now. Read when the dashboard starts and at each notice that the
  /// terminal changed size.
  var size: TerminalSize { get }

  /// Blanks the whole screen.
  func clear()

  /// Writes `lines`, the first at `row` and `column` (both from 0), each cut or padded to
  /// `width` characters so that it covers what was there.
  ///
  /// - Parameters:
  ///   - lines: The text, one element per row.
  ///   - row: The row of the first line.
  ///   - column: The column every line starts at.
  ///   - width: The width of every line.
  func write(lines: [Substring], row: Int, column: Int, width: Int)
}
