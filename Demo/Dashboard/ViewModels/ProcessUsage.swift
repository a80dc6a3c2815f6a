/// A process and the share of one CPU it used between two readings.
public struct ProcessUsage: Hashable, Sendable {
  /// The process ID.
  public var id: Int
  /// The command name.
  public var name: String
  /// The state letter, as in `/proc/[pid]/stat`.
  public var state: Character
  /// CPU used, in percent of one core: 200 is two cores kept busy.
  public var cpuPercent: Double
  /// Resident memory, in kibibytes.
  public var residentKiB: UInt64

  /// Creates a process usage record.
  ///
  /// - Parameters:
  ///   - id: The process ID.
  ///   - name: The command name.
  ///   - state: The state letter.
  ///   - cpuPercent: CPU used, in percent of one core.
  ///   - residentKiB: Resident memory, in kibibytes.
  public init(id: Int, name: String, state: Character, cpuPercent: Double, residentKiB: UInt64) {
    self.id = id
    self.name = name
    self.state = state
    self.cpuPercent = cpuPercent
    self.residentKiB = residentKiB
  }

  /// The processes of `current` that used the most CPU since `previous`, busiest first.
  ///
  /// The time between the readings is measured in clock ticks, from the machine's CPU
  /// counters, so no wall clock is read: the result depends on the two readings alone. A
  /// process absent from `previous` started since, so all of its ticks fall in between. Ties
  /// are broken by total CPU time, then by process ID.
  ///
  /// - Parameters:
  ///   - current: The newer reading.
  ///   - previous: The older reading.
  ///   - limit: How many processes to return.
  /// - Returns: At most `limit` processes; resident memory counts pages of the newer
  ///   reading's ``SystemSnapshot/pageKiB``.
  public static func top(
    of current: SystemSnapshot, since previous: SystemSnapshot, limit: Int
  ) -> [ProcessUsage] {
    let cores = UInt64(max(1, current.cpu.cores.count))
    // Counters that went backwards (a reset, or readings passed in the wrong order) give no
    // elapsed time, and every usage reads 0.
    let (now, then) = (current.cpu.all.total, previous.cpu.all.total)
    let ticksPerCore = now > then ? Double((now - then) / cores) : 0
    var earlier: [Int: UInt64] = [:]
    for process in previous.processes { earlier[process.id] = process.cpuTicks }
    let measured = current.processes.map { process in
      let before = earlier[process.id] ?? 0
      let ran = process.cpuTicks >= before ? process.cpuTicks - before : 0
      let percent = ticksPerCore > 0 ? 100 * Double(ran) / ticksPerCore : 0
      return (process, percent)
    }
    let sorted = measured.sorted { lhs, rhs in
      if lhs.1 != rhs.1 { return lhs.1 > rhs.1 }
      if lhs.0.cpuTicks != rhs.0.cpuTicks { return lhs.0.cpuTicks > rhs.0.cpuTicks }
      return lhs.0.id < rhs.0.id
    }
    return sorted.prefix(limit).map { process, percent in
      ProcessUsage(
        id: process.id, name: process.name, state: process.state, cpuPercent: percent,
        residentKiB: process.residentPages * current.pageKiB)
    }
  }
}
