/// One reading of the machine: what the dashboard samples once per frame.
public struct SystemSnapshot: Hashable, Sendable {
  /// The machine's name.
  public var hostname: String
  /// CPU times, all together and per core.
  public var cpu: CPUStat
  /// Memory figures.
  public var memory: MemoryInfo
  /// The load averages.
  public var load: LoadAverage
  /// The processes, in no particular order.
  public var processes: [ProcessStat]
  /// The size of a memory page on the machine read, in kibibytes: what a process's resident
  /// page count is multiplied by.
  public var pageKiB: UInt64

  /// Creates a reading.
  ///
  /// - Parameters:
  ///   - hostname: The machine's name.
  ///   - cpu: CPU times.
  ///   - memory: Memory figures.
  ///   - load: The load averages.
  ///   - processes: The processes.
  ///   - pageKiB: The machine's memory page size, in kibibytes (4 on most Linux systems).
  public init(
    hostname: String, cpu: CPUStat, memory: MemoryInfo, load: LoadAverage,
    processes: [ProcessStat], pageKiB: UInt64 = 4
  ) {
    self.hostname = hostname
    self.cpu = cpu
    self.memory = memory
    self.load = load
    self.processes = processes
    self.pageKiB = pageKiB
  }
}
