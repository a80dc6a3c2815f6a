#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A directory laid out as `/proc`: the live one, or a recorded copy of the files the dashboard
/// reads (`stat`, `meminfo`, `loadavg`, `sys/kernel/hostname`, `[pid]/stat`, `[pid]/comm`).
public struct ProcDirectory: Hashable, Sendable {
  /// The path of the directory.
  public var path: String

  /// Names a directory laid out as `/proc`.
  ///
  /// - Parameter path: Its path; `/proc` for the live system.
  public init(path: String = "/proc") {
    self.path = path
  }

  /// Why a reading failed.
  public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file that could not be read or parsed.
    public var path: String

    /// Names the file that could not be read or parsed.
    ///
    /// - Parameter path: The file's path.
    public init(path: String) {
      self.path = path
    }

    /// A sentence naming the file.
    public var description: String { "cannot read \(path)" }
  }

  /// Reads every file the dashboard shows.
  ///
  /// A process that exits while it is being read is skipped, as `top` does.
  ///
  /// - Returns: The reading.
  /// - Throws: ``ReadError`` when `stat`, `meminfo` or `loadavg` is missing or malformed.
  public func snapshot() throws(ReadError) -> SystemSnapshot {
    guard let cpu = read("stat").flatMap(CPUStat.init(parsing:)) else {
      throw ReadError(path: path + "/stat")
    }
    guard let memory = read("meminfo").flatMap(MemoryInfo.init(parsing:)) else {
      throw ReadError(path: path + "/meminfo")
    }
    guard let load = read("loadavg").flatMap(LoadAverage.init(parsing:)) else {
      throw ReadError(path: path + "/loadavg")
    }
    let hostname = read("sys/kernel/hostname")?.trimmingSuffix("\n") ?? "localhost"
    var processes: [ProcessStat] = []
    for id in processIDs() {
      guard let stat = read("\(id)/stat"),
        let process = ProcessStat(parsing: stat, comm: read("\(id)/comm"))
      else { continue }
      processes.append(process)
    }
    return SystemSnapshot(
      hostname: String(hostname), cpu: cpu, memory: memory, load: load, processes: processes,
      pageKiB: pageKiB())
  }

  /// The page size of the machine the directory describes, in kibibytes: this machine's for
  /// the live `/proc` (however the path is spelt); for a recording, the byte count in its
  /// `pagesize` file, or 4 KiB (the common Linux page) when it has none.
  func pageKiB() -> UInt64 {
    if isLive {
      let bytes = sysconf(Int32(_SC_PAGESIZE))
      return bytes > 0 ? UInt64(bytes) / 1024 : 4
    }
    guard let text = read("pagesize"), let bytes = UInt64(text.trimmingSuffix("\n")) else {
      return 4
    }
    return bytes / 1024
  }

  /// Whether the directory is this machine's `/proc`, after resolving links and `..`.
  var isLive: Bool {
    guard let resolved = realpath(path, nil) else { return false }
    defer { free(resolved) }
    return String(cString: resolved) == "/proc"
  }

  /// The contents of a file of the directory, or `nil` if it cannot be read.
  ///
  /// Files of `/proc` report a size of zero, so the file is read until its end rather than
  /// for its reported size.
  ///
  /// - Parameter name: The file's path relative to the directory.
  /// - Returns: The contents, decoded as UTF-8.
  public func read(_ name: String) -> Substring? {
    guard let file = fopen(path + "/" + name, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if count <= 0 { break }
      bytes.append(contentsOf: buffer[..<count])
    }
    if ferror(file) != 0 { return nil }
    return Substring(decoding: bytes, as: UTF8.self)
  }

  /// The numeric entries of the directory: the IDs of its processes, ascending.
  public func processIDs() -> [Int] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var ids: [Int] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if let id = Int(name) { ids.append(id) }
    }
    return ids.sorted()
  }
}
