import Invalidating

// Views live on the main actor. Top-level code runs there in Swift 6
// mode only; `assumeIsolated` says so in every language mode.
MainActor.assumeIsolated {
  let loop = RenderLoop()
  let dashboard = DashboardView(
    frame: ViewRect(x: 0, y: 0, width: 21, height: 2))
  loop.addRootView(dashboard)

  @MainActor func show(_ frame: RenderLoop.Frame) {
    print("layouts: \(frame.layouts), displays: \(frame.displays)")
    print(dashboard.compositedText())
  }

  show(loop.tick())

  for percent in [10, 20, 30] {
    dashboard.cpu.percent = percent
  }
  show(loop.tick())

  print("idle: \(loop.tick().isIdle)")
}
