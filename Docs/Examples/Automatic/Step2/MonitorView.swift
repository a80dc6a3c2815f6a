import Invalidating

/// The monitor's screen: a title bar with the headline above a CPU and
/// a memory gauge. Its passes read the model; nothing is bound.
final class MonitorView: HeadlessView {
  let model: MonitorModel
  let cpu = GaugeView()
  let memory = GaugeView()

  init(model: MonitorModel, frame: ViewRect) {
    self.model = model
    super.init(frame: frame)
    cpu.label = "cpu"
    memory.label = "mem"
    addSubview(cpu)
    addSubview(memory)
  }

  override func updateProperties() {
    cpu.percent = model.cpuPercent.value
    memory.percent = model.memoryPercent.value
  }

  override func layoutSubviews() {
    cpu.frame = ViewRect(x: 0, y: 1, width: bounds.width, height: 1)
    memory.frame = ViewRect(x: 0, y: 2, width: bounds.width, height: 1)
  }

  override func render() -> String {
    titleBar(model.headline.value)
  }
}

extension HeadlessView {
  /// `text` in a line of dashes as wide as the view: `-- text -----`.
  func titleBar(_ text: String) -> String {
    let start = "-- \(text) "
    let rest = max(Int(bounds.width) - start.count, 0)
    return start + String(repeating: "-", count: rest)
  }
}
