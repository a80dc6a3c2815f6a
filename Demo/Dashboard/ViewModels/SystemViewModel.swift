import Invalidating

/// The dashboard's view model: turns readings of the machine into the state its panels show.
///
/// Each reading goes through ``apply(_:)``, which writes the raw state (`@ReadWrite`
/// properties) in one `batch`. The display-ready properties are computed from it with
/// `Property { }`, which follows whatever its computation reads and ends the propagation at a
/// result equal to the one it holds: a panel that reads one of them hears of a reading only
/// when what it shows changed.
public final class SystemViewModel {
  /// The machine's name.
  @ReadWrite("") public var hostname: Property<String>
  /// Each core's busy share since the previous reading, from 0 to 1.
  @ReadWrite([]) public var coreUsage: Property<[Double]>
  /// All cores' busy share since the previous reading, from 0 to 1.
  @ReadWrite(0) public var totalUsage: Property<Double>
  /// The memory figures of the latest reading.
  @ReadWrite(MemoryInfo(total: 0, available: 0)) public var memory: Property<MemoryInfo>
  /// The load averages of the latest reading.
  @ReadWrite(LoadAverage(oneMinute: 0, fiveMinutes: 0, fifteenMinutes: 0))
  public var load: Property<LoadAverage>
  /// The busiest processes since the previous reading.
  @ReadWrite([]) public var topProcesses: Property<[ProcessUsage]>

  /// The CPU panel's figures: each core's usage and all cores', in whole percent.
  public let cpuSummary: Property<CPUSummary>
  /// How many cores the machine has.
  public let coreCount: Property<Int>
  /// The header line: host, cores and load averages.
  public let headline: Property<String>
  /// The memory panel's figures, rounded as shown.
  public let memorySummary: Property<MemorySummary>
  /// The processes panel's rows, busiest first.
  public let processRows: Property<[ProcessRow]>

  /// How many processes ``topProcesses`` lists.
  public let processLimit: Int
  /// How many writes ``apply(_:)`` made to the `@ReadWrite` state, for the demo's statistics.
  public private(set) var writeCount = 0
  private var previous: SystemSnapshot?

  /// Creates a view model with empty state.
  ///
  /// - Parameter processLimit: How many of the busiest processes to list.
  public init(processLimit: Int = 5) {
    self.processLimit = processLimit
    // The computations capture the properties they read, not `self`, which is not
    // initialized yet.
    let hostname = _hostname.wrappedValue
    let coreUsage = _coreUsage.wrappedValue
    let totalUsage = _totalUsage.wrappedValue
    let memory = _memory.wrappedValue
    let load = _load.wrappedValue
    let topProcesses = _topProcesses.wrappedValue
    cpuSummary = Property { CPUSummary(coreUsage: coreUsage.value, totalUsage: totalUsage.value) }
    let coreCount = Property { coreUsage.value.count }
    self.coreCount = coreCount
    headline = Property {
      let cores = coreCount.value
      let averages = load.value
      let figures = [averages.oneMinute, averages.fiveMinutes, averages.fifteenMinutes]
        .map { TextLayout.fixed($0, digits: 2) }.joined(separator: " ")
      return "\(hostname.value) · \(cores) \(cores == 1 ? "core" : "cores") · load \(figures)"
    }
    memorySummary = Property { MemorySummary(memory.value) }
    processRows = Property { topProcesses.value.map(ProcessRow.init) }
  }

  /// Takes a reading: writes every piece of raw state, in one batch.
  ///
  /// Usage figures need two readings; the first one sets them to zero.
  ///
  /// - Parameter snapshot: The new reading.
  public func apply(_ snapshot: SystemSnapshot) {
    let earlier = previous ?? snapshot
    previous = snapshot
    batch {
      write($hostname, snapshot.hostname)
      write(
        $coreUsage,
        zip(snapshot.cpu.cores, earlier.cpu.cores).map { $0.usage(since: $1) })
      write($totalUsage, snapshot.cpu.all.usage(since: earlier.cpu.all))
      write($memory, snapshot.memory)
      write($load, snapshot.load)
      write(
        $topProcesses,
        ProcessUsage.top(of: snapshot, since: earlier, limit: processLimit))
    }
  }

  private func write<Value>(_ relay: BehaviorRelay<Value>, _ value: Value) {
    writeCount += 1
    relay.accept(value)
  }
}
