import Invalidating

// Views live on the main actor. Top-level code runs there in Swift 6
// mode only; `assumeIsolated` says so in every language mode.
MainActor.assumeIsolated {
  let loop = RenderLoop()
  let dashboard = DashboardView(
    frame: ViewRect(x: 0, y: 0, width: 21, height: 2))
  loop.addRootView(dashboard)

  let machine = MachineViewModel()
  let bindings = [
    machine.cpuPercent.bind(to: dashboard.cpu, \.percent),
    machine.memoryPercent.bind(to: dashboard.memory, \.percent),
  ]

  let readings = [
    Reading(cpuBusy: 0.12, memoryUsed: 0.40),
    Reading(cpuBusy: 0.58, memoryUsed: 0.401),
    Reading(cpuBusy: 0.581, memoryUsed: 0.399),
    Reading(cpuBusy: 0.97, memoryUsed: 0.45),
  ]

  loop.tick()
  for (number, reading) in readings.enumerated() {
    machine.apply(reading)
    let frame = loop.tick()
    print("reading \(number + 1): \(frame.displays) of 3 views redrawn")
    if frame.displays > 0 {
      print(dashboard.compositedText())
    }
  }

  for binding in bindings { binding.cancel() }
}
