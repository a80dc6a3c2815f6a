import Invalidating

// Views live on the main actor. Top-level code runs there in Swift 6
// mode only; `assumeIsolated` says so in every language mode.
MainActor.assumeIsolated {
  let model = MonitorModel()
  let screen = MonitorView(
    model: model, frame: ViewRect(x: 0, y: 0, width: 21, height: 3))
  let loop = RenderLoop()
  loop.addRootView(screen)
  loop.tick()

  @MainActor func tick(_ label: String) {
    let frame = loop.tick()
    if frame.isIdle {
      print("\(label): idle")
      return
    }
    print(
      "\(label): \(frame.propertyUpdates) properties pass, "
        + "\(frame.displays) of 3 views redrawn")
    print(screen.compositedText())
  }

  model.apply(Reading(time: "12:00:01", cpu: 0.12, memory: 0.40))
  tick("12:00:01")

  model.setFrozen(true)
  tick("freeze")

  model.apply(Reading(time: "12:00:02", cpu: 0.58, memory: 0.41))
  tick("12:00:02")

  model.focus(on: .memory)
  tick("focus on memory")

  model.apply(Reading(time: "12:00:03", cpu: 0.97, memory: 0.45))
  tick("12:00:03")

  model.setFrozen(false)
  tick("resume")

  let bound = BoundMonitorView(
    model: model, frame: ViewRect(x: 0, y: 0, width: 21, height: 3))
  let boundLoop = RenderLoop()
  boundLoop.addRootView(bound)
  boundLoop.tick()
  let same = bound.compositedText() == screen.compositedText()
  print("the bound screen shows the same: \(same)")
}
