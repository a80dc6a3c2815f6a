/// Made-up readings for machines without a readable `/proc` (macOS, containers that hide it).
///
/// The readings follow a fixed pseudo-random sequence: two runs with the same seed show the
/// same screens. Each reading adds one second (100 clock ticks per core) of activity.
public final class SimulatedSource: SystemSource {
  private let coreCount: Int
  private var generator: Generator
  private var cpu: CPUStat
  private var processes: [ProcessStat]
  private var tick = 0

  /// Simulates a machine with `coreCount` cores.
  ///
  /// - Parameters:
  ///   - coreCount: How many cores to show; at least one.
  ///   - seed: Picks the sequence of readings.
  public init(coreCount: Int = 4, seed: UInt64 = 42) {
    self.coreCount = max(1, coreCount)
    generator = Generator(state: seed)
    let idle = CPUTimes(user: 0, system: 0, idle: 0)
    cpu = CPUStat(all: idle, cores: Array(repeating: idle, count: self.coreCount))
    let names = ["swift-frontend", "swift-build", "sourcekit-lsp", "bash", "sshd", "systemd"]
    processes = names.enumerated().map { index, name in
      ProcessStat(
        id: 100 * (index + 1), name: name, state: "S", cpuTicks: 0, residentPages: 1000)
    }
  }

  /// `simulated`.
  public var name: String { "simulated" }

  /// The next made-up reading; the simulation never ends.
  public func nextSnapshot() throws -> SystemSnapshot? {
    tick += 1
    var all = CPUTimes(user: 0, system: 0, idle: 0)
    for core in cpu.cores.indices {
      let busy = generator.next(below: 101)
      cpu.cores[core].user += busy * 3 / 4
      cpu.cores[core].system += busy - busy * 3 / 4
      cpu.cores[core].idle += 100 - busy
      all.user += cpu.cores[core].user
      all.system += cpu.cores[core].system
      all.idle += cpu.cores[core].idle
    }
    cpu.all = all
    for index in processes.indices {
      let ticks = generator.next(below: 40 / UInt64(index + 1) + 1)
      processes[index].cpuTicks += ticks
      processes[index].state = ticks > 10 ? "R" : "S"
    }
    let total: UInt64 = 16 * 1024 * 1024
    let available = total / 2 + generator.next(below: 4) * 64 * 1024
    return SystemSnapshot(
      hostname: "simulated", cpu: cpu,
      memory: MemoryInfo(total: total, available: available, cached: total / 4, buffers: 65_536),
      load: LoadAverage(
        oneMinute: 0.5 + Double(tick % 5) / 4, fiveMinutes: 0.75, fifteenMinutes: 0.5,
        runnableTasks: 2, totalTasks: 120),
      processes: processes)
  }

  /// A linear congruential generator: tiny, seedable, and the same on every platform.
  private struct Generator {
    var state: UInt64

    mutating func next(below bound: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % bound
    }
  }
}
