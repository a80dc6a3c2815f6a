import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pseudo-terminal, to run the dashboard's executable as a user does in a terminal window:
/// the program's standard input, output and error are the terminal's secondary side; the test
/// holds the primary side, reads what the program draws, types keys and changes the window's
/// size.
final class PseudoTerminal {
  private let primary: Int32
  /// The side the program uses; the test closes its copy once the program has it, so that
  /// reading the primary side ends when the program exits.
  private var secondary: Int32
  /// Everything the program wrote so far, escape sequences included.
  private(set) var output = ""
  private var bytes: [UInt8] = []

  /// Opens a terminal of `columns` by `rows`.
  init(columns: Int, rows: Int) throws {
    // The C library's pseudo-terminal calls, which Glibc's module map leaves out (they need
    // _XOPEN_SOURCE), looked up by name.
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    guard let library = dlopen(nil, RTLD_NOW) else { throw POSIXError(.ENOSYS) }
    defer { dlclose(library) }
    func function<Function>(_ name: String, _ type: Function.Type) throws -> Function {
      guard let symbol = dlsym(library, name) else { throw POSIXError(.ENOSYS) }
      return unsafeBitCast(symbol, to: type)
    }
    let (openPrimary, grant, unlock, secondaryName) = (
      try function("posix_openpt", Open.self), try function("grantpt", Open.self),
      try function("unlockpt", Open.self), try function("ptsname", Name.self)
    )
    primary = openPrimary(O_RDWR | O_NOCTTY)
    guard primary >= 0, grant(primary) == 0, unlock(primary) == 0,
      let name = secondaryName(primary)
    else { throw POSIXError(.ENOTTY) }
    secondary = open(name, O_RDWR | O_NOCTTY)
    guard secondary >= 0 else { throw POSIXError(.ENOTTY) }
    resize(columns: columns, rows: rows)
  }

  deinit {
    closeSecondary()
    close(primary)
  }

  /// The secondary side, for the program's standard streams.
  var programSide: FileHandle { FileHandle(fileDescriptor: secondary, closeOnDealloc: false) }

  /// Closes the test's copy of the secondary side: call it once the program runs.
  func closeSecondary() {
    guard secondary >= 0 else { return }
    close(secondary)
    secondary = -1
  }

  /// Sets the window's size, as a terminal does when its user resizes it. (The kernel signals
  /// the terminal's foreground process group; a program started by the test is not in it, so
  /// the test sends SIGWINCH itself.)
  func resize(columns: Int, rows: Int) {
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
  }

  /// Types `text` on the program's standard input.
  func type(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(primary, $0.baseAddress, $0.count) }
  }

  /// Reads what the program writes until `condition` holds for everything read so far, or
  /// until the program closes the terminal (it exited).
  ///
  /// - Returns: Whether `condition` held; `false` also after 20 seconds without it, so that a
  ///   program that hangs fails the test instead of stopping the run.
  @discardableResult
  func readOutput(until condition: (String) -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(20)
    var chunk = [UInt8](repeating: 0, count: 4096)
    while !condition(output) {
      guard ContinuousClock.now < deadline else { return false }
      var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 100) > 0 else { continue }
      let count = read(primary, &chunk, chunk.count)
      // Linux reports EIO once every copy of the secondary side is closed.
      guard count > 0 else { return condition(output) }
      bytes += chunk.prefix(count)
      output = String(decoding: bytes, as: UTF8.self)
    }
    return true
  }

  /// Reads until the program closes the terminal.
  func readToEnd() {
    readOutput { _ in false }
  }
}
