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

  model.apply(Reading(cpu: 0.12, memory: 0.40))
  tick("reading 1")

  model.apply(Reading(cpu: 0.58, memory: 0.40))
  tick("reading 2")

  model.apply(Reading(cpu: 0.58, memory: 0.45))
  tick("reading 3")

  model.apply(Reading(cpu: 0.581, memory: 0.449))
  tick("reading 4")

  for share in [0.70, 0.80, 0.97] {
    model.apply(Reading(cpu: share, memory: 0.45))
  }
  tick("readings 5 to 7")
}
