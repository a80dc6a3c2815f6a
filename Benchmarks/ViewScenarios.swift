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

/// Sets of a view's `@ViewInvalidating(.layout)` property to a new value each time, against
/// the hand-written `didSet`.
@MainActor
func setOfOneProperty() -> Sides {
  let wrapped = WrappedView()
  let handWritten = HandWrittenView()
  return Sides(
    ours: { iterations in for i in 0..<iterations { wrapped.radius = Double(i) } },
    floor: { iterations in for i in 0..<iterations { handWritten.radius = Double(i) } })
}

/// Batches of `setsPerBatch` sets of a view's `width` (`.layout, .display`), each followed by a
/// tick of the render loop that hosts it, against the hand-written `didSet` (which has no
/// batch: each set requests its passes).
@MainActor
func batchOfSetsAndTick() -> Sides {
  let (wrapped, handWritten, loop) = hostedViews()
  return Sides(
    ours: batchesOfSets(of: wrapped, ticking: loop),
    floor: { iterations in
      var round = 0.0
      for _ in 0..<iterations {
        round += 1
        for k in 0..<setsPerBatch { handWritten.width = round * 1e5 + Double(k) }
        loop.tick()
      }
    })
}

/// A wrapped and a hand-written view, hosted by one render loop that has ticked once.
@MainActor
func hostedViews() -> (WrappedView, HandWrittenView, RenderLoop) {
  let wrapped = WrappedView()
  let handWritten = HandWrittenView()
  let loop = RenderLoop()
  loop.addRootView(wrapped)
  loop.addRootView(handWritten)
  loop.tick()
  return (wrapped, handWritten, loop)
}

/// The view scenarios: one set, and a batch of sets followed by one render-loop tick.
@MainActor
func viewScenarios(_ configuration: Configuration) -> [Row] {
  let set = setOfOneProperty()
  let setTimes = measure([set.ours, set.floor], configuration)

  // Passes per batch, checked outside the timing, on views of their own: one view at a time in
  // its own tick.
  let (wrapped, _, loop) = hostedViews()
  let before = (wrapped.layouts, wrapped.renders)
  batch {
    for k in 1...setsPerBatch { wrapped.width = Double(k) }
  }
  let frame = loop.tick()
  let passes = (wrapped.layouts - before.0, wrapped.renders - before.1)
  let exact = passes == (1, 1) && frame.layouts == 1 && frame.displays == 1

  let batched = batchOfSetsAndTick()
  let batchTimes = measure([batched.ours, batched.floor], configuration)
  return [
    Row(
      name: "@ViewInvalidating set", ours: setTimes[0], baseline: setTimes[1],
      target: "<= 3.00x", pass: setTimes[0] / setTimes[1] <= 3,
      note: "didSet { setNeedsLayout() }", instructions: InstructionProfiles("view")),
    Row(
      name: "10,000 sets in a batch + 1 tick", ours: batchTimes[0] / 1_000,
      baseline: batchTimes[1] / 1_000, target: "1 layout, 1 render", pass: exact,
      unit: "us/batch", note: "layouts \(passes.0), renders \(passes.1) (.layout, .display)",
      instructions: InstructionProfiles("batch")),
  ]
}

// Our side of the batch scenario, shared with the tracing rows.

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
