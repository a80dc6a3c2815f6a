import InvalidatingDashboard

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The terminal in full-screen mode: keys arrive one at a time without echo, the screen is the
/// alternate one, the cursor is hidden. ``restore()`` puts everything back.
@MainActor
final class LiveTerminal: LiveScreen {
  private var original = termios()
  private var isRestored = false

  /// Switches the terminal to full-screen mode, or returns `nil` when standard input or output
  /// is not a terminal.
  init?() {
    guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0,
      tcgetattr(STDIN_FILENO, &original) == 0
    else { return nil }
    var raw = original
    // No line buffering, no echo, and Ctrl-C as a key (read as 3) so that the terminal is
    // always restored by our own exit path.
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { controls in
      controls[Int(VMIN)] = 0
      controls[Int(VTIME)] = 0
    }
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return nil }
    terminalToRestore = original
    signal(SIGTERM, restoreTerminalAndExit)
    signal(SIGHUP, restoreTerminalAndExit)
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
  }

  /// Writes `text` as is.
  func write(_ text: String) {
    writeAll(text, to: STDOUT_FILENO)
  }

  /// The size the kernel holds for the terminal (`TIOCGWINSZ`), which the terminal updates
  /// before it sends SIGWINCH; 80x24 if the kernel does not say.
  var size: TerminalSize {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return TerminalSize(columns: 80, rows: 24) }
    return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
  }

  /// Blanks the screen.
  func clear() {
    write("\u{1B}[2J")
  }

  /// Writes `lines` with the first one at row `row`, column `column` (both from 0), each padded
  /// to `width` so that it covers what was there.
  func write(lines: [Substring], row: Int, column: Int, width: Int) {
    var output = ""
    for (index, line) in lines.enumerated() {
      output += "\u{1B}[\(row + index + 1);\(column + 1)H" + TextLayout.fit(String(line), width)
    }
    write(output)
  }

  /// The keys typed since the last call, without waiting; empty when there are none.
  func readKeys() -> [UInt8] {
    var keys = [UInt8](repeating: 0, count: 64)
    let count = read(STDIN_FILENO, &keys, keys.count)
    return count > 0 ? Array(keys.prefix(count)) : []
  }

  /// Leaves full-screen mode: main screen, cursor shown, keys echoed again.
  func restore() {
    guard !isRestored else { return }
    isRestored = true
    write("\u{1B}[?25h\u{1B}[?1049l")
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
  }
}

/// The terminal settings to put back if the process is killed while in full-screen mode.
// Safe: written once on the main actor before the handlers are installed, then only read,
// from the signal handler.
nonisolated(unsafe) private var terminalToRestore = termios()

/// Handles SIGTERM and SIGHUP in full-screen mode: main screen, cursor shown, keys echoed,
/// then exit. Uses only async-signal-safe calls (`write`, `tcsetattr`, `_exit`).
private func restoreTerminalAndExit(_ signal: Int32) {
  let reset: StaticString = "\u{1B}[?25h\u{1B}[?1049l"
  _ = reset.withUTF8Buffer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &terminalToRestore)
  _exit(128 + signal)
}
