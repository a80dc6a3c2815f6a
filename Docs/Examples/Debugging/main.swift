// The README's example, traced: why the badge laid out and
// redrew. `--dot` prints the graph instead (scripts/trace-graph
// draws it).
import Invalidating

nonisolated final class CounterViewModel: Sendable {
  let count: Property<Int>
  private let countRelay = BehaviorRelay(0)
  init() { count = countRelay.asProperty() }
  func increment() { countRelay.modify { $0 += 1 } }
}

final class BadgeView: HeadlessView {
  @ViewInvalidating(.display, .layout) var text = ""
}

MainActor.assumeIsolated {
  let model = CounterViewModel()
  let badge = BadgeView()
  let binding = model.count.map { "Count: \($0)" }
    .bind(to: badge, \.text)
  let loop = RenderLoop()
  loop.addRootView(badge)
  loop.tick()

  // The README's batch, traced, then one tick of the render loop.
  let tracer = Tracer()
  tracer.start()
  batch {
    model.increment()
    model.increment()
  }
  loop.tick()
  let unnamed = tracer.takeRecords()

  // The same, with the count named.
  model.count.named("count")
  model.increment()
  loop.tick()
  tracer.stop()

  if CommandLine.arguments.contains("--dot") {
    let title = "The README's example: the last change in red"
    print(tracer.graphviz(title: title), terminator: "")
  } else {
    for record in unnamed { print(record) }
    print("")
    for record in tracer.records { print(record) }
  }
  binding.cancel()
}
