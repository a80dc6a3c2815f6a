import Invalidating

// Views live on the main actor. Top-level code runs there in Swift 6
// mode only; `assumeIsolated` says so in every language mode.
MainActor.assumeIsolated {
  let gauge = GaugeView(
    frame: ViewRect(x: 0, y: 0, width: 21, height: 1))
  gauge.label = "cpu"
  gauge.percent = 42
  print("needs display: \(gauge.needsDisplay)")

  gauge.displayIfNeeded()
  print("rendered: \(gauge.renderedText)")
  print("needs display: \(gauge.needsDisplay)")

  gauge.percent = 42
  print("equal value, needs display: \(gauge.needsDisplay)")

  gauge.percent = 43
  gauge.percent = 44
  gauge.displayIfNeeded()
  print("rendered: \(gauge.renderedText)")
}
