import Invalidating

/// The screen: a CPU gauge above a memory gauge.
final class DashboardView: HeadlessView {
  let cpu = GaugeView()
  let memory = GaugeView()

  override init(frame: ViewRect) {
    super.init(frame: frame)
    cpu.label = "cpu"
    memory.label = "mem"
    addSubview(cpu)
    addSubview(memory)
  }

  override func layoutSubviews() {
    cpu.frame = ViewRect(x: 0, y: 0, width: bounds.width, height: 1)
    memory.frame = ViewRect(x: 0, y: 1, width: bounds.width, height: 1)
  }
}
