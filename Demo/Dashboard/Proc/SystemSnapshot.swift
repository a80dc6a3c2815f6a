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

  /// Creates a reading.
  ///
  /// - Parameters:
  ///   - hostname: The machine's name.
  ///   - cpu: CPU times.
  ///   - memory: Memory figures.
  ///   - load: The load averages.
  ///   - processes: The processes.
  public init(
    hostname: String, cpu: CPUStat, memory: MemoryInfo, load: LoadAverage,
    processes: [ProcessStat]
  ) {
    self.hostname = hostname
    self.cpu = cpu
    self.memory = memory
    self.load = load
    self.processes = processes
  }
}
