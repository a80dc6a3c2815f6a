import Invalidating

/// Step 2's screen written with bindings, for comparison: each value it
/// shows is copied into a view property by a binding it must keep.
final class BoundMonitorView: HeadlessView {
  @ViewInvalidating(.display) var headline = ""
  let cpu = GaugeView()
  let memory = GaugeView()
  private var bindings: [SubscriptionToken] = []

  init(model: MonitorModel, frame: ViewRect) {
    super.init(frame: frame)
    cpu.label = "cpu"
    memory.label = "mem"
    addSubview(cpu)
    addSubview(memory)
    bindings = [
      model.headline.bind(to: self, \.headline),
      model.cpuPercent.bind(to: cpu, \.percent),
      model.memoryPercent.bind(to: memory, \.percent),
    ]
  }

  override func layoutSubviews() {
    cpu.frame = ViewRect(x: 0, y: 1, width: bounds.width, height: 1)
    memory.frame = ViewRect(x: 0, y: 2, width: bounds.width, height: 1)
  }

  override func render() -> String {
    titleBar(headline)
  }
}
