import InvalidatingDashboard

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The terminal in full-screen mode: keys arrive one at a time without echo, the screen is the
/// alternate one, the cursor is hidden. ``restore()`` puts everything back.
@MainActor
final class LiveTerminal {
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

  /// Writes `lines` with the first one at row `row`, column `column` (both from 0), each padded
  /// to `width` so that it covers what was there.
  func write(lines: [Substring], row: Int, column: Int, width: Int) {
    var output = ""
    for (index, line) in lines.enumerated() {
      output += "\u{1B}[\(row + index + 1);\(column + 1)H" + TextLayout.fit(String(line), width)
    }
    write(output)
  }

  /// Waits up to `seconds` for a key; returns it, or `nil` when none came.
  func waitForKey(seconds: Double) -> UInt8? {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return nil }
    var byte: UInt8 = 0
    return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
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
