import Invalidating

// `@ViewInvalidating` against the hand-written `didSet`, on headless views.

/// A view whose properties invalidate through `@ViewInvalidating`, counting its passes.
final class WrappedView: HeadlessView {
  @ViewInvalidating(.layout) var radius = 0.0
  @ViewInvalidating(.layout, .display) var width = 0.0
  var layouts = 0
  var renders = 0

  override func layoutSubviews() { layouts += 1 }
  override func render() -> String {
    renders += 1
    return ""
  }
}

/// The same view written by hand: `didSet` compares and requests the passes.
final class HandWrittenView: HeadlessView {
  var radius = 0.0 {
    didSet { if oldValue != radius { setNeedsLayout() } }
  }
  var width = 0.0 {
    didSet {
      if oldValue != width {
        setNeedsLayout()
        setNeedsDisplay()
      }
    }
  }
  var layouts = 0
  var renders = 0

  override func layoutSubviews() { layouts += 1 }
  override func render() -> String {
    renders += 1
    return ""
  }
}

/// Sets per batch in the batch scenario.
let setsPerBatch = 10_000

/// The view scenarios: one set, and a batch of sets followed by one render-loop tick.
@MainActor
func viewScenarios(_ configuration: Configuration) -> [Row] {
  let handWritten = HandWrittenView()
  let set = measure(
    [
      setsOfOneProperty(of: WrappedView()),
      { iterations in for i in 0..<iterations { handWritten.radius = Double(i) } },
    ], configuration)
  blackHole(handWritten.radius)

  let wrapped = WrappedView()

  let loop = RenderLoop()
  loop.addRootView(wrapped)
  loop.addRootView(handWritten)
  loop.tick()
  // Passes per batch, checked outside the timing: one view at a time in its own tick.
  let before = (wrapped.layouts, wrapped.renders)
  batch {
    for k in 1...setsPerBatch { wrapped.width = Double(k) }
  }
  let frame = loop.tick()
  let passes = (wrapped.layouts - before.0, wrapped.renders - before.1)
  let exact =
    passes == (1, 1) && frame.layouts == 1 && frame.displays == 1

  var round = 0.0
  let batched = measure(
    [
      batchesOfSets(of: wrapped, ticking: loop),
      { iterations in
        for _ in 0..<iterations {
          round += 1
          for k in 0..<setsPerBatch { handWritten.width = round * 1e5 + Double(k) }
          loop.tick()
        }
      },
    ], configuration)
  return [
    Row(
      name: "@ViewInvalidating set", ours: set[0], baseline: set[1], target: "<= 3.00x",
      pass: set[0] / set[1] <= 3, note: "didSet { setNeedsLayout() }"),
    Row(
      name: "10,000 sets in a batch + 1 tick", ours: batched[0] / 1_000,
      baseline: batched[1] / 1_000, target: "1 layout, 1 render", pass: exact, unit: "us/batch",
      note: "layouts \(passes.0), renders \(passes.1) (.layout, .display)"),
  ]
}

// Our side of the view scenarios, shared with `--profile` (Profiles.swift).

/// Sets `view.radius` (`@ViewInvalidating(.layout)`) to a new value each time.
@MainActor
func setsOfOneProperty(of view: WrappedView) -> Body {
  { iterations in for i in 0..<iterations { view.radius = Double(i) } }
}

/// Batches of `setsPerBatch` sets of `view.width` (`.layout, .display`), each followed by a
/// tick of `loop`, which hosts the view.
@MainActor
func batchesOfSets(of view: WrappedView, ticking loop: RenderLoop) -> Body {
  var round = 0.0
  return { iterations in
    for _ in 0..<iterations {
      round += 1
      batch { for k in 0..<setsPerBatch { view.width = round * 1e5 + Double(k) } }
      loop.tick()
    }
  }
}
