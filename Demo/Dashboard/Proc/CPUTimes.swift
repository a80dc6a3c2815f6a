/// The time a CPU (or all of them together) has spent in each state since boot, in clock ticks,
/// as one `cpu` line of `/proc/stat` gives it.
public struct CPUTimes: Hashable, Sendable {
  /// Ticks spent running user code, including niced processes.
  public var user: UInt64
  /// Ticks spent running the kernel, including interrupts.
  public var system: UInt64
  /// Ticks spent idle, including waiting for input and output.
  public var idle: UInt64
  /// Ticks stolen by the hypervisor for other guests.
  public var steal: UInt64

  /// Creates a record of CPU times.
  ///
  /// - Parameters:
  ///   - user: Ticks spent running user code.
  ///   - system: Ticks spent running the kernel.
  ///   - idle: Ticks spent idle.
  ///   - steal: Ticks stolen by the hypervisor.
  public init(user: UInt64, system: UInt64, idle: UInt64, steal: UInt64 = 0) {
    self.user = user
    self.system = system
    self.idle = idle
    self.steal = steal
  }

  /// Every tick, busy or not.
  public var total: UInt64 { user + system + idle + steal }

  /// The ticks spent doing work: everything but idle time.
  public var busy: UInt64 { user + system + steal }

  /// The share of the time between `earlier` and this record that the CPU was busy, from 0 to 1.
  ///
  /// - Parameter earlier: A record of the same CPU, taken before this one.
  /// - Returns: The busy share, or 0 when no time passed (or the counters went backwards, as
  ///   they do when a CPU goes offline and back).
  public func usage(since earlier: CPUTimes) -> Double {
    guard total > earlier.total, busy >= earlier.busy else { return 0 }
    let busyTicks = Double(busy - earlier.busy)
    return min(1, busyTicks / Double(total - earlier.total))
  }
}

/// The `cpu` lines of `/proc/stat`: all CPUs together, then each core.
public struct CPUStat: Hashable, Sendable {
  /// All CPUs together: the `cpu` line.
  public var all: CPUTimes
  /// Each core, in order: the `cpu0`, `cpu1`, ... lines.
  public var cores: [CPUTimes]

  /// Creates a record of every CPU's times.
  ///
  /// - Parameters:
  ///   - all: All CPUs together.
  ///   - cores: Each core, in order.
  public init(all: CPUTimes, cores: [CPUTimes]) {
    self.all = all
    self.cores = cores
  }

  /// Parses the text of `/proc/stat`.
  ///
  /// A `cpu` line lists ticks in the states user, nice, system, idle, iowait, irq, softirq,
  /// steal, guest and guest_nice; older kernels stop early, and missing fields count as zero.
  /// Guest time is already part of user time, so it is not added again. Lines other than the
  /// `cpu` ones are ignored.
  ///
  /// - Parameter text: The file's contents.
  /// - Returns: The parsed record, or `nil` when the text has no `cpu` line.
  public init?(parsing text: Substring) {
    var all: CPUTimes?
    var cores: [CPUTimes] = []
    for line in text.split(separator: "\n") where line.hasPrefix("cpu") {
      let fields = line.split(separator: " ")
      guard fields.count >= 5 else { continue }
      let ticks = fields.dropFirst().prefix(8).map { UInt64($0) ?? 0 }
      func field(_ index: Int) -> UInt64 { index < ticks.count ? ticks[index] : 0 }
      let times = CPUTimes(
        user: field(0) + field(1),
        system: field(2) + field(5) + field(6),
        idle: field(3) + field(4),
        steal: field(7))
      if fields[0] == "cpu" { all = times } else { cores.append(times) }
    }
    guard let all else { return nil }
    self.init(all: all, cores: cores)
  }
}
