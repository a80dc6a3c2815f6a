/// What `/proc/[pid]/stat` and `/proc/[pid]/comm` say about one process.
public struct ProcessStat: Hashable, Sendable {
  /// The process ID.
  public var id: Int
  /// The command name, at most 15 characters, as the kernel keeps it.
  public var name: String
  /// The state letter: `R` running, `S` sleeping, `D` waiting on a device, `Z` zombie, ...
  public var state: Character
  /// Clock ticks the process has run, in user and kernel mode together.
  public var cpuTicks: UInt64
  /// Resident memory, in pages.
  public var residentPages: UInt64

  /// Creates a process record.
  ///
  /// - Parameters:
  ///   - id: The process ID.
  ///   - name: The command name.
  ///   - state: The state letter.
  ///   - cpuTicks: Clock ticks run, user and kernel mode together.
  ///   - residentPages: Resident memory, in pages.
  public init(id: Int, name: String, state: Character, cpuTicks: UInt64, residentPages: UInt64) {
    self.id = id
    self.name = name
    self.state = state
    self.cpuTicks = cpuTicks
    self.residentPages = residentPages
  }

  /// Parses `/proc/[pid]/stat`, and takes the name from `/proc/[pid]/comm` when given.
  ///
  /// The line is `pid (comm) state ppid ...`. The name in parentheses may itself contain
  /// spaces and parentheses, so the fields are counted from the *last* closing parenthesis:
  /// after it come the state (field 3), utime and stime (fields 14 and 15) and rss (field 24).
  ///
  /// - Parameters:
  ///   - stat: The contents of `/proc/[pid]/stat`.
  ///   - comm: The contents of `/proc/[pid]/comm`, whose trailing newline is dropped.
  /// - Returns: The parsed record, or `nil` when the line is cut short or malformed.
  public init?(parsing stat: Substring, comm: Substring? = nil) {
    guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"), open < close,
      let id = Int(stat[..<open].trimmingSuffix(" "))
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 of the line (state), so field n is fields[n - 3].
    guard fields.count >= 22, let state = fields[0].first,
      let userTicks = UInt64(fields[11]), let systemTicks = UInt64(fields[12]),
      let resident = Int64(fields[21])
    else { return nil }
    let statName = stat[stat.index(after: open)..<close]
    let name = comm.map { $0.trimmingSuffix("\n") } ?? statName
    self.init(
      id: id, name: String(name.isEmpty ? statName : name), state: state,
      cpuTicks: userTicks + systemTicks, residentPages: UInt64(max(0, resident)))
  }
}

extension Substring {
  /// The substring without the trailing run of `character`.
  func trimmingSuffix(_ character: Character) -> Substring {
    var end = endIndex
    while end > startIndex, self[index(before: end)] == character { end = index(before: end) }
    return self[startIndex..<end]
  }
}
