import Invalidating
import InvalidatingTestSupport
import Testing

// Tracing is process-wide and tests run in parallel: each test follows its own views and
// properties (`.object`, `.property`), so records made by other tests meanwhile stay out.

/// A view with a property that asks for layout and display, and one that asks for layout.
private final class TracedBadgeView: HeadlessView {
  @ViewInvalidating(.layout, .display) var text = ""
  @ViewInvalidating(.layout) var cornerRadius = 0.0
}

/// A view that reads a property in its properties pass, with no binding.
private final class TracedTitleView: HeadlessView {
  let title: Property<String>
  private(set) var shownTitle = ""

  init(title: Property<String>) {
    self.title = title
    super.init(frame: ViewRect(x: 0, y: 0, width: 10, height: 1))
  }

  override func updateProperties() {
    shownTitle = title.value
  }
}

@MainActor
@Suite("Tracing: why a view invalidated, and a picture of the graph")
struct TracingTests {
  @Test("a write through map, combineLatest and a computed property to a view gives its chain")
  func aChainFromTheWriteToTheView() throws {
    let count = BehaviorRelay(1).named("count")
    let title = BehaviorRelay("items")
    let doubled = count.map { $0 * 2 }
    let pairLine = #line + 1
    let pair = Property.combineLatest(doubled, title)
    let labelLine = #line + 1
    let label = Property { "\(pair.value.0) \(pair.value.1)" }
    let badge = TracedBadgeView()
    let binding = label.bind(to: badge, \.text)
    let writeLine = #line + 2
    let records = Tracer.record(.object(badge)) {
      count.accept(2)
    }
    let file = "TracingTests.swift"
    let chain =
      "TracedBadgeView.text ← computed(\(file):\(labelLine)) ← combineLatest(\(file):\(pairLine)) "
      + "← count.map ← count (written at \(file):\(writeLine))"
    #expect(
      records.map(\.description) == [
        "TracedBadgeView.layout ← " + chain, "TracedBadgeView.display ← " + chain,
      ])
    let cause = try #require(records.first?.causes.first)
    #expect(
      cause.steps == [
        "TracedBadgeView.text", "computed(\(file):\(labelLine))",
        "combineLatest(\(file):\(pairLine))", "count.map", "count",
      ])
    let write = try #require(cause.write)
    #expect(write.target == "count")
    #expect(write.file == "EndToEndTests/TracingTests.swift" && write.line == writeLine)
    #expect(!write.isDeclaration && write.batch == nil)
    #expect(records.first?.event == .invalidation(kind: "layout", deduplicated: false))
    #expect(records.allSatisfy { $0.isAbout(badge) && $0.subject == "TracedBadgeView" })
    binding.cancel()
  }

  @Test("a pass lists the invalidations that asked for it, each with its chain")
  func aPassGoesBackToItsRequests() {
    let count = BehaviorRelay(0).named("count")
    let badge = TracedBadgeView()
    let binding = count.map { "\($0)" }.bind(to: badge, \.text)
    let loop = RenderLoop()
    loop.addRootView(badge)
    loop.tick()
    let writeLine = #line + 2
    let records = Tracer.record(.object(badge)) {
      count.accept(1)
      loop.tick()
    }
    let chain =
      "TracedBadgeView.text ← count.map ← count (written at TracingTests.swift:\(writeLine))"
    #expect(
      records.filter { if case .pass = $0.event { true } else { false } }.map(\.description) == [
        "TracedBadgeView.layoutSubviews() ← TracedBadgeView.layout ← " + chain,
        "TracedBadgeView.render() ← TracedBadgeView.display ← " + chain,
      ])
    binding.cancel()
  }

  @Test("a pass that reads a property is asked for again by its change, and says so")
  func aTrackedPassGoesBackToTheWrite() {
    let title = BehaviorRelay("Inbox").named("title")
    let view = TracedTitleView(title: title.map { $0.uppercased() })
    let loop = RenderLoop()
    loop.addRootView(view)
    loop.tick()
    let writeLine = #line + 2
    let records = Tracer.record(.object(view)) {
      title.accept("Sent")
      loop.tick()
    }
    let chain = "title.map ← title (written at TracingTests.swift:\(writeLine))"
    #expect(
      records.map(\.description) == [
        "TracedTitleView.updateProperties ← " + chain,
        "TracedTitleView.updateProperties() ← TracedTitleView.updateProperties ← " + chain,
      ])
    #expect(view.shownTitle == "SENT")
  }

  @Test("a repeated invalidation in one batch is marked deduplicated, and keeps its cause")
  func deduplicatedInvalidationsAreMarked() {
    let badge = TracedBadgeView()
    let records = Tracer.record(.object(badge)) {
      batch {
        badge.text = "a"
        badge.cornerRadius = 4
        badge.text = "b"  // requests nothing again: the property asked once in this batch
      }
    }
    #expect(
      records.map(\.event) == [
        .invalidation(kind: "layout", deduplicated: false),
        .invalidation(kind: "display", deduplicated: false),
        .invalidation(kind: "layout", deduplicated: true),
      ])
    let number = records.first?.causes.first?.write?.batch
    #expect(number != nil && records.allSatisfy { $0.causes.first?.write?.batch == number })
    #expect(
      records[2].description
        == "TracedBadgeView.layout (deduplicated) ← TracedBadgeView.cornerRadius "
        + "(declared at TracingTests.swift:11, batch \(number ?? 0))")
  }

  @Test("a view property set directly starts its chain where the property is declared")
  func aDirectSetShowsTheDeclaration() throws {
    let badge = TracedBadgeView()
    let records = Tracer.record(.object(badge)) { badge.cornerRadius = 2 }
    #expect(
      records.map(\.description) == [
        "TracedBadgeView.layout ← TracedBadgeView.cornerRadius (declared at TracingTests.swift:11)"
      ])
    let write = try #require(records.first?.causes.first?.write)
    #expect(
      write.isDeclaration && write.line == 11 && write.target == "TracedBadgeView.cornerRadius")
  }

  @Test("the writes of one batch share its number; another batch has another; none outside")
  func batchesAreIdentified() throws {
    let first = BehaviorRelay(0).named("first")
    let second = BehaviorRelay(0).named("second")
    let records = Tracer.record(.property(Property.combineLatest(first, second))) {}
    #expect(records.isEmpty)
    let both = Property.combineLatest(first, second).named("both")
    let traced = Tracer.record(.property(both)) {
      batch {
        first.accept(1)
        second.accept(1)
      }
      batch { first.accept(2) }
      second.accept(2)
    }
    #expect(traced.count == 3)
    let batches = traced.map { $0.causes.map { $0.write?.batch } }
    let firstBatch = try #require(batches[0][0])
    #expect(batches[0] == [firstBatch, firstBatch])
    let secondBatch = try #require(batches[1][0])
    #expect(secondBatch > firstBatch)
    #expect(batches[2] == [nil])
    #expect(traced[0].event == .change && traced[0].subject == "both")
    #expect(
      traced[0].causes.map(\.description).allSatisfy {
        $0.contains("(written at TracingTests.swift:") && $0.contains(", batch \(firstBatch))")
      })
  }

  @Test("unnamed properties are called by where they were made and what they come from")
  func namesAndCreationSites() {
    let relayLine = #line + 1
    let relay = BehaviorRelay(0)
    let events = PublishRelay<Int>().named("taps")
    let model = TracedModel()
    let mappedLine = #line + 1
    let mapped = relay.map { $0 + 1 }.removeDuplicates()
    let named = BehaviorRelay(0).named("named")
    let both = Property.combineLatest(named.map { $0 }.removeDuplicates(), named)
    let fromEvents = events.map { $0 * 2 }
    let writeLine = #line + 1
    let records = Tracer.record(.property(mapped)) { relay.accept(1) }
    let file = "TracingTests.swift"
    let relayName = "BehaviorRelay(\(file):\(relayLine))"
    #expect(
      records.map(\.description) == [
        "removeDuplicates(\(file):\(mappedLine)) ← map(\(file):\(mappedLine)) ← \(relayName) "
          + "(written at \(file):\(writeLine))"
      ])
    // Derived from named values only, a value is called after them.
    let bothRecords = Tracer.record(.property(both)) { named.accept(1) }
    #expect(bothRecords.map(\.subject) == ["combineLatest(named.map.removeDuplicates, named)"])
    let stateRecords = Tracer.record(.property(model.count)) { model.increment() }
    #expect(stateRecords.map(\.subject) == ["@ReadWrite(\(file):\(TracedModel.countLine))"])
    let seen = Recorder<Int>()
    let token = fromEvents.subscribe(seen.sink)
    let emitLine = #line + 1
    let signalRecords = Tracer.record(.signal(fromEvents)) { events.accept(3) }
    #expect(
      signalRecords.map(\.description) == ["taps.map ← taps (written at \(file):\(emitLine))"])
    #expect(seen.values == [6])
    token.cancel()
  }

  @Test("relays and computed properties made in turn at many sites are each called by their own")
  func manySitesMadeInTurn() {
    // More sites than a thread's cache of origins has pairs of slots, made in turn three
    // times, two kinds per line: any two that shared an entry would name each other's site.
    let lines = Array(100..<180)
    var relays: [BehaviorRelay<Int>] = []
    var computed: [Property<Int>] = []
    for _ in 0..<3 {
      relays = []
      computed = []
      for line in lines {
        let relay = BehaviorRelay(0, file: "Sites.swift", line: UInt(line))
        relays.append(relay)
        computed.append(Property(file: "Sites.swift", line: UInt(line)) { relay.value })
      }
    }
    var named: [String] = []
    var computedNamed: [String] = []
    for (relay, property) in zip(relays, computed) {
      named += Tracer.record(.property(relay)) { relay.accept(1) }.map(\.subject)
      let token = property.subscribe { _ in }
      computedNamed += Tracer.record(.property(property)) { relay.accept(2) }.map(\.subject)
      token.cancel()
    }
    #expect(named == lines.map { "BehaviorRelay(Sites.swift:\($0))" })
    #expect(computedNamed == lines.map { "computed(Sites.swift:\($0))" })
  }

  @Test("while no tracer records, nothing is recorded, and everything works as usual")
  func tracingOffRecordsNothing() {
    let count = BehaviorRelay(0)
    let badge = TracedBadgeView()
    let binding = count.map(String.init).bind(to: badge, \.text)
    let idle = Tracer(.object(badge))
    count.accept(1)
    #expect(idle.records.isEmpty && !idle.isRecording)
    let stopped = Tracer(.object(badge))
    stopped.start()
    count.accept(2)
    stopped.stop()
    count.accept(3)
    badge.cornerRadius = 1
    #expect(stopped.records.count == 2)  // layout and display, for the write of 2
    #expect(badge.text == "3" && badge.needsLayout)
    binding.cancel()
  }

  @Test("a relay written by a sink continues the chain of what the sink received")
  func aReentrantWriteKeepsItsChain() {
    let source = BehaviorRelay(0).named("source")
    let mirror = BehaviorRelay(0).named("mirror")
    let badge = TracedBadgeView()
    let forward = source.bind(to: mirror)
    let invalidation = badge.invalidate(.layout, whenever: mirror)
    let writeLine = #line + 1
    let records = Tracer.record(.object(badge)) { source.accept(5) }
    #expect(records.count == 1)
    let line = records.first?.description ?? ""
    #expect(line.hasPrefix("TracedBadgeView.layout ← mirror (written at Bind.swift:"))
    #expect(line.hasSuffix(" ← source (written at TracingTests.swift:\(writeLine))"))
    forward.cancel()
    invalidation.cancel()
  }

  @Test("a long cascade of sink-made writes keeps the newest causes of each, not every one")
  func aLongCascadeIsCut() {
    let counter = BehaviorRelay(0).named("counter")
    let token = counter.subscribe { value in
      if value > 0 && value < 5_000 { counter.accept(value + 1) }
    }
    let records = Tracer.record(.property(counter)) { counter.accept(1) }
    #expect(records.count == 5_000)
    let last = records.last?.causes ?? []
    #expect(last.count == 1 && last.first?.write == nil)
    #expect(last.first?.description.hasSuffix("← … (earlier causes not kept)") == true)
    #expect(counter.value == 5_000)
    token.cancel()
  }

  @Test("a write on another thread is traced to the change it caused")
  func aWriteOnAnotherThread() async {
    let count = BehaviorRelay(0).named("count")
    let doubled = count.map { $0 * 2 }
    let tracer = Tracer(.property(doubled))
    tracer.start()
    await Task.detached { count.accept(21) }.value
    tracer.stop()
    #expect(tracer.records.map(\.description).count == 1)
    #expect(
      tracer.records.first?.description.hasPrefix(
        "count.map ← count (written at TracingTests.swift:") == true)
    #expect(doubled.value == 42)
  }

  @Test("a tracer hands each record over as it is made, and keeps it")
  func recordsAreHandedOver() {
    let badge = TracedBadgeView()
    let received = Recorder<String>()
    let tracer = Tracer(.object(badge)) { received.record($0.description) }
    tracer.start()
    badge.cornerRadius = 3
    tracer.stop()
    #expect(received.values == tracer.records.map(\.description))
    #expect(tracer.takeRecords().count == 1)
    #expect(tracer.records.isEmpty)
  }

  @Test("the DOT graph holds the sources, derived values, sinks and views, the last change in red")
  func theGraph() {
    let count = BehaviorRelay(0).named("count")
    let other = BehaviorRelay(0).named("other")
    let label = Property.combineLatest(count.map { $0 * 2 }, other).map { "\($0) \($1)" }
    let badge = TracedBadgeView()
    let binding = label.bind(to: badge, \.text)
    let token = other.subscribe { _ in }
    let loop = RenderLoop()
    loop.addRootView(badge)
    loop.tick()
    let tracer = Tracer(.object(badge))
    tracer.start()
    other.accept(1)
    loop.tick()
    count.accept(1)
    loop.tick()
    tracer.stop()
    let dot = tracer.graphviz(title: "badge")
    #expect(dot.hasPrefix("digraph invalidating {\n  rankdir=LR;"))
    #expect(dot.hasSuffix("}\n"))
    let lines = dot.split(separator: "\n").map(String.init)
    func node(_ label: String) -> String? {
      lines.first { $0.contains("[label=\"\(label)") }.map { String($0.split(separator: " ")[0]) }
    }
    func line(_ label: String) -> String { lines.first { $0.contains("[label=\"\(label)") } ?? "" }
    // Sources, derived values, a sink, and the view's box with what happened in it.
    #expect(line("count").contains("shape=box"))
    #expect(line("count.map").contains("shape=ellipse"))
    #expect(lines.contains { $0.contains("shape=point") && $0.contains("xlabel=\"sink\"") })
    #expect(
      lines.contains { $0.contains("label=\"TracedBadgeView\"") && $0.contains("cluster") == false }
    )
    #expect(dot.contains("subgraph cluster_0 {\n    label=\"TracedBadgeView\""))
    #expect(line("text").contains("shape=note") && line("layout").contains("shape=diamond"))
    #expect(line("render()").contains("shape=box3d"))
    // Edges: input to derived value, the binding's set, the invalidation, the pass.
    if let count = node("count"), let map = node("count.map"), let text = node("text"),
      let layout = node("layout"), let pass = node("layoutSubviews()")
    {
      #expect(lines.contains { $0.hasPrefix("  \(count) -> \(map)") })
      #expect(lines.contains { $0.contains("-> \(text) [label=\"sink sets\"") })
      #expect(lines.contains { $0.hasPrefix("  \(text) -> \(layout)") })
      #expect(lines.contains { $0.hasPrefix("  \(layout) -> \(pass)") })
    } else {
      Issue.record("missing nodes in\n\(dot)")
    }
    // The last change (count's write) is red, from its write to the pass; other's is not.
    #expect(line("count").contains("#dc2626"))
    #expect(line("count.map").contains("#dc2626"))
    #expect(!line("other").contains("#dc2626"))
    #expect(line("written at TracingTests.swift").contains("fontcolor=\"#dc2626\""))
    #expect(line("render()").contains("#dc2626"))
    binding.cancel()
    token.cancel()
  }
}

/// A view model with `@ReadWrite` state, to see what traces call it.
private final class TracedModel {
  static let countLine = #line + 1
  @ReadWrite(0) var count: Property<Int>
  func increment() { $count.accept(count.value + 1) }
}
