import Invalidating

/// One reading of the machine: what a service would take from /proc.
struct Reading: Sendable {
  /// The share of CPU time spent busy since the last reading, 0 to 1.
  var cpuBusy: Double
  /// The share of memory in use, from 0 to 1.
  var memoryUsed: Double
}

/// The screen's state: raw readings in, display-ready percentages out.
final class MachineViewModel: Sendable {
  /// The share of CPU time in use, from 0 to 1.
  let cpuShare: Property<Double>
  /// The share of memory in use, from 0 to 1.
  let memoryShare: Property<Double>
  /// The CPU gauge: changes only when the rounded percentage does.
  let cpuPercent: Property<Int>
  /// The memory gauge: changes only when the rounded percentage does.
  let memoryPercent: Property<Int>

  private let cpuShareRelay = BehaviorRelay(0.0)
  private let memoryShareRelay = BehaviorRelay(0.0)

  init() {
    cpuShare = cpuShareRelay.asProperty()
    memoryShare = memoryShareRelay.asProperty()
    cpuPercent = cpuShareRelay.map { Int(($0 * 100).rounded()) }
      .removeDuplicates()
    memoryPercent = memoryShareRelay.map { Int(($0 * 100).rounded()) }
      .removeDuplicates()
  }

  /// Takes a reading: both values change together, in one batch.
  func apply(_ reading: Reading) {
    batch {
      cpuShareRelay.accept(reading.cpuBusy)
      memoryShareRelay.accept(reading.memoryUsed)
    }
  }
}
