import Invalidating

/// One reading of the machine.
struct Reading: Sendable {
  /// When the reading was taken, as the screen shows it.
  var time: String
  /// The share of CPU time in use, from 0 to 1.
  var cpu: Double
  /// The share of memory in use, from 0 to 1.
  var memory: Double
}

/// The reading the headline shows.
enum Metric: Sendable {
  case cpu
  case memory
}

/// A server monitor's state: readings in, what the screen shows out.
final class MonitorModel: Sendable {
  /// The CPU gauge's value: the rounded percentage.
  let cpuPercent: Property<Int>
  /// The memory gauge's value: the rounded percentage.
  let memoryPercent: Property<Int>
  /// The focused reading, as text.
  let headline: Property<String>
  /// When the last reading was taken.
  let time: Property<String>
  /// Whether the screen is frozen: readings are taken, not shown.
  let isFrozen: Property<Bool>

  private let cpuRelay = BehaviorRelay(0.0)
  private let memoryRelay = BehaviorRelay(0.0)
  private let focusRelay = BehaviorRelay(Metric.cpu)
  private let timeRelay = BehaviorRelay("--:--:--")
  private let frozenRelay = BehaviorRelay(false)

  /// Creates the model; `trace` is told the name of each property
  /// that computes, to watch it work.
  init(trace: @escaping @Sendable (String) -> Void = { _ in }) {
    let cpu = cpuRelay
    let memory = memoryRelay
    let focus = focusRelay
    let cpuPercent = Property<Int> {
      trace("cpuPercent")
      return Int((cpu.value * 100).rounded())
    }
    let memoryPercent = Property<Int> {
      trace("memoryPercent")
      return Int((memory.value * 100).rounded())
    }
    headline = Property<String> {
      trace("headline")
      switch focus.value {
      case .cpu: return "cpu \(cpuPercent.value)%"
      case .memory: return "mem \(memoryPercent.value)%"
      }
    }
    self.cpuPercent = cpuPercent
    self.memoryPercent = memoryPercent
    time = timeRelay.asProperty()
    isFrozen = frozenRelay.asProperty()
  }

  /// Takes a reading: its values change together, in one batch.
  func apply(_ reading: Reading) {
    batch {
      timeRelay.accept(reading.time)
      cpuRelay.accept(reading.cpu)
      memoryRelay.accept(reading.memory)
    }
  }

  /// Shows `metric` in the headline.
  func focus(on metric: Metric) {
    focusRelay.accept(metric)
  }

  /// Freezes the screen, or lets it show readings again.
  func setFrozen(_ frozen: Bool) {
    frozenRelay.accept(frozen)
  }
}
