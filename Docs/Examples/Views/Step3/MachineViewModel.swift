import Invalidating

/// One reading of the machine: what a service would take from /proc.
struct Reading: Sendable {
  /// The share of CPU time spent busy since the last reading, 0 to 1.
  var cpuBusy: Double
  /// The share of memory in use, from 0 to 1.
  var memoryUsed: Double
}

/// The screen's state: raw readings in, display-ready percentages out.
final class MachineViewModel {
  @ReadWrite(0.0) var cpuShare: Property<Double>
  @ReadWrite(0.0) var memoryShare: Property<Double>

  /// The CPU gauge: changes only when the rounded percentage does.
  private(set) lazy var cpuPercent: Property<Int> =
    cpuShare
    .map { Int(($0 * 100).rounded()) }
    .removeDuplicates()

  /// The memory gauge: changes only when the rounded percentage does.
  private(set) lazy var memoryPercent: Property<Int> =
    memoryShare
    .map { Int(($0 * 100).rounded()) }
    .removeDuplicates()

  /// Takes a reading: both values change together, in one batch.
  func apply(_ reading: Reading) {
    batch {
      $cpuShare.accept(reading.cpuBusy)
      $memoryShare.accept(reading.memoryUsed)
    }
  }
}
