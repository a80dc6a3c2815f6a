/// A difference between the system under test and the model.
struct Mismatch: Error, CustomStringConvertible {
  let description: String
}

/// Counts of what the checked programs exercised, to show the generator reaches the hard cases.
struct Coverage {
  var programs = 0
  var steps = 0
  var events = 0
  var sinkCalls = 0
  var reentrantWrites = 0
  var cancelsFromSinks = 0
  var batches = 0
  var releases = 0
  var freedNodes = 0
  var views = 0
  var bindings = 0
  var invalidations = 0
  /// Computed properties made (`Property { ... }`).
  var computed = 0
  /// Reads of a computed property while nothing observed it (computed on demand).
  var suspendedReads = 0
  /// Times a computed property went from observed to suspended, and back.
  var suspensions = 0
  var resumptions = 0
  /// Deliveries that changed what a computed property reads (a branch flipped).
  var dependencySwitches = 0
  /// Reads made by sinks during deliveries, and those the model could say the value of (not
  /// downstream of a `filter`, whose value depends on the history).
  var sinkReads = 0
  var checkedSinkReads = 0
  /// Reads checked inside batches (of every held node, after every step).
  var batchReads = 0

  mutating func add(_ other: Coverage) {
    programs += other.programs
    steps += other.steps
    events += other.events
    sinkCalls += other.sinkCalls
    reentrantWrites += other.reentrantWrites
    cancelsFromSinks += other.cancelsFromSinks
    batches += other.batches
    releases += other.releases
    freedNodes += other.freedNodes
    views += other.views
    bindings += other.bindings
    invalidations += other.invalidations
    computed += other.computed
    suspendedReads += other.suspendedReads
    suspensions += other.suspensions
    resumptions += other.resumptions
    dependencySwitches += other.dependencySwitches
    sinkReads += other.sinkReads
    checkedSinkReads += other.checkedSinkReads
    batchReads += other.batchReads
  }

  /// The counters as one line, for a test to print.
  var summary: String {
    """
    \(programs) programs, \(steps) steps, \(events) events, \(sinkCalls) sink calls, \
    \(reentrantWrites) re-entrant writes, \(cancelsFromSinks) cancels from sinks, \
    \(batches) batches, \(releases) releases, \(views) views, \(bindings) bindings, \
    \(invalidations) invalidations, \(freedNodes) nodes checked freed; \(computed) computed \
    properties, \(suspendedReads) reads while suspended, \(suspensions) suspensions and \
    \(resumptions) resumptions checked, \(dependencySwitches) dependency switches, \
    \(sinkReads) reads from sinks (\(checkedSinkReads) checked), \(batchReads) reads in batches
    """
  }
}

/// Runs a program against a system and the reference model side by side, checking after every
/// step (and after every step inside a batch) that they agree.
///
/// Checked after each top-level step:
/// - every sink got exactly the calls the model lists, in order, with the model's values: so
///   its last value is the model's, it ran once per write or batch (plus the re-entrant
///   follow-ups the model queued), and a `combine` sink never saw a mix of values the model
///   never had;
/// - sinks of one node ran in subscription order, and none ran after its cancellation;
/// - every held node reads (`currentValue`) as the model says;
/// - every node the model says is unreachable has been freed.
///
/// - every read a sink made gave what the newest writes then gave (for a node not downstream
///   of a `filter`, whose value depends on the history);
/// - every computed property is suspended exactly while nothing observes it (rule 13).
///
/// Inside a batch: no sink ran (except a new subscriber's first call), and reads see the newest
/// writes.
final class ModelCheck {
  let system: any SystemUnderTest
  let model = ReferenceModel()
  private var consumed: [SinkID: Int] = [:]
  /// Calls the system did not make, from sinks not (yet) known to be cancelled. The model
  /// learns of a cancellation when it replays the sink that made it, which for a sink of
  /// another part of the graph can come after the event the cancelled sink missed (the
  /// engine delivers that part later, once the cancellation happened); so a missing call
  /// only fails once the step's events are all replayed.
  private var owed: [(call: ExpectedCall, what: String)] = []
  private(set) var coverage = Coverage()
  /// How many of the log's sink reads have been checked.
  private var checkedReads = 0
  /// Which computed properties were suspended after the previous step.
  private var wasSuspended: [NodeID: Bool] = [:]

  init(system: any SystemUnderTest) { self.system = system }

  /// Runs `program`; throws the first mismatch.
  static func run(_ program: [Step], on system: any SystemUnderTest) throws -> Coverage {
    let check = ModelCheck(system: system)
    defer { system.releaseEverything() }
    try check.run(program)
    return check.coverage
  }

  func run(_ program: [Step]) throws {
    coverage.programs = 1
    for step in program {
      try perform(step)
      try settle()
      try checkSettled(after: step)
    }
    coverage.dependencySwitches = model.relinks
    try checkTeardown()
  }

  private var log: CallLog { system.log }

  // MARK: Steps

  private func perform(_ step: Step) throws {
    coverage.steps += 1
    switch step {
    case .source(let id, let initial):
      guard model.nodes[id] == nil else { return }
      model.addSource(id, initial)
      system.makeSource(id, initial: initial)
    case .derive(let id, let kind, let inputs):
      guard model.canDerive(id, kind, inputs) else { return }
      if kind.formula != nil { coverage.computed += 1 }
      system.makeNode(id, kind, inputs)
      model.derive(id, kind, inputs)
    case .write(let id, let value):
      guard model.canWrite(id) else { return }
      model.write(id, value, at: log.tick())
      system.write(id, value)
    case .batch(let steps):
      coverage.batches += 1
      model.beginBatch()
      var end = 0
      try system.batch {
        for step in steps {
          try perform(step)
          try settle()
          try checkInBatch(after: step)
        }
        end = log.tick()
      }
      model.endBatch(at: end)
    case .subscribe(let sink, let node, var emits, let behavior):
      guard model.canSubscribe(sink, to: node, behavior) else { return }
      if case .forward = behavior {
        // A binding starts from the current value.
        emits = true
        coverage.bindings += 1
      }
      let first = model.subscribe(
        sink, to: node, emitsCurrentValue: emits, behavior, at: log.tick())
      system.subscribe(sink, to: node, emitsCurrentValue: emits, behavior)
      if let first { try match([first], of: "subscribing s\(sink)") }
    case .cancel(let sink):
      guard model.canCancel(sink) else { return }
      model.cancel(sink, at: log.tick())
      system.cancel(sink)
    case .release(let id):
      guard model.canRelease(id) else { return }
      coverage.releases += 1
      model.release(id, at: log.tick())
      system.release(id)
    case .view(let id, let initial):
      guard model.nodes[id] == nil else { return }
      coverage.views += 1
      model.addView(id, initial)
      system.makeView(id, initial: initial)
    }
  }

  /// Delivers the model's queued events, oldest first, matching each with the system's calls.
  private func settle() throws {
    while let event = model.popEvent() {
      coverage.events += 1
      let writes = event.writes.map { "n\($0.source) = \($0.value)" }.joined(separator: ", ")
      try match(model.deliver(event), of: "the event { \(writes) } (t\(event.key))")
    }
    try checkOwedCalls()
    try checkSinkReads()
  }

  /// Compares every read a sink made since the last check with what the newest writes gave
  /// then: every write made before it is known once the step's events are replayed.
  private func checkSinkReads() throws {
    while checkedReads < log.reads.count {
      let read = log.reads[checkedReads]
      checkedReads += 1
      coverage.sinkReads += 1
      guard let expected = model.value(of: read.node, at: read.time) else { continue }
      coverage.checkedSinkReads += 1
      guard read.value == expected else {
        throw Mismatch(
          description:
            "s\(read.sink) read n\(read.node) in its sink (t\(read.time)) and got \(read.value); "
            + "the newest writes then give \(expected)")
      }
    }
  }

  /// Matches the calls the model expects from one event with the calls the system made, then
  /// lets the model follow what those sinks did (in the order the system ran them).
  private func match(_ expected: [ExpectedCall], of what: String) throws {
    var made: [(call: ExpectedCall, actual: CallLog.Call)] = []
    var missing: [ExpectedCall] = []
    for call in expected {
      let index = consumed[call.sink, default: 0]
      let actual = log.calls[call.sink] ?? []
      if index < actual.count, actual[index].value == call.value {
        consumed[call.sink] = index + 1
        made.append((call, actual[index]))
      } else {
        missing.append(call)
      }
    }
    // Rule 6: one node's sinks run in subscription order.
    let byNode = Dictionary(grouping: made, by: \.call.node)
    for calls in byNode.values {
      let times = calls.sorted { $0.call.rank < $1.call.rank }.map(\.actual.time)
      guard times == times.sorted() else {
        throw Mismatch(
          description: "Sinks of n\(calls[0].call.node) ran out of subscription order in \(what)")
      }
    }
    for (call, actual) in made.sorted(by: { $0.actual.time < $1.actual.time }) {
      coverage.sinkCalls += 1
      if let cancelled = model.sinks[call.sink]!.cancelledAt, cancelled < actual.time {
        throw Mismatch(
          description: "s\(call.sink) ran with \(call.value) after it was cancelled, in \(what)")
      }
      let actions = model.react(call.sink, to: call.value)
      guard actions.count == actual.actionTimes.count else {
        throw Mismatch(
          description:
            "s\(call.sink) took \(actual.actionTimes.count) actions on \(call.value), "
            + "the model \(actions.count), in \(what)")
      }
      for (action, time) in zip(actions, actual.actionTimes) {
        switch action {
        case .write(let source, let value):
          coverage.reentrantWrites += 1
          if model.canWrite(source) { model.write(source, value, at: time) }
        case .cancel(let target):
          coverage.cancelsFromSinks += 1
          if model.canCancel(target) { model.cancel(target, at: time) }
        }
      }
    }
    for call in missing where model.sinks[call.sink]!.cancelledAt == nil {
      owed.append((call, what))
    }
  }

  /// Fails for every call that was not made although its sink was never cancelled.
  private func checkOwedCalls() throws {
    defer { owed = [] }
    for (call, what) in owed where model.sinks[call.sink]!.cancelledAt == nil {
      let index = consumed[call.sink, default: 0]
      let actual = log.calls[call.sink] ?? []
      let got = index < actual.count ? "\(actual[index].value)" : "nothing"
      throw Mismatch(
        description:
          "s\(call.sink) (on n\(call.node)) should have got \(call.value) from \(what); "
          + "its next call got \(got); all its calls: \(actual.map(\.value))")
    }
  }

  // MARK: Checks

  private func checkNoUnexpectedCalls(after step: Step) throws {
    for (sink, calls) in log.calls where calls.count > consumed[sink, default: 0] {
      let extra = calls[consumed[sink, default: 0]...].map(\.value)
      throw Mismatch(
        description:
          "s\(sink) got calls the model did not expect, after `\(step.lines()[0])`: \(extra); "
          + "all its calls: \(calls.map(\.value))")
    }
  }

  /// Every view got each invalidation at most once per change of its property, at least once
  /// if it changed at all, and at most once for a whole batch (rule 2); `.layout` and
  /// `.display` always together.
  private func checkInvalidations(after step: Step) throws {
    for id in model.order where model.views.contains(id) {
      guard let counts = system.takeInvalidations(id) else { continue }
      coverage.invalidations += counts.layouts + counts.displays
      var problem: String?
      if counts.layouts != counts.displays {
        problem = "\(counts.layouts) layout and \(counts.displays) display invalidations"
      } else if counts.changes == 0 && counts.layouts > 0 {
        problem = "\(counts.layouts) invalidations though its property never changed"
      } else if counts.changes > 0 && counts.layouts == 0 {
        problem = "no invalidation though its property changed \(counts.changes) times"
      } else if counts.layouts > counts.changes {
        problem = "\(counts.layouts) invalidations for \(counts.changes) changes"
      } else if case .batch = step, counts.layouts > 1 {
        problem = "\(counts.layouts) layout invalidations in one batch"
      }
      if let problem {
        throw Mismatch(description: "View n\(id) got \(problem), in `\(step.lines()[0])`")
      }
    }
  }

  private func checkSettled(after step: Step) throws {
    try checkNoUnexpectedCalls(after: step)
    try checkInvalidations(after: step)
    for id in model.views.sorted() where !model.isHeld(id) && system.isViewAlive(id) {
      throw Mismatch(description: "View n\(id) is still alive after the program released it")
    }
    for id in model.order where model.isHeld(id) {
      countSuspendedRead(id)
      let actual = system.currentValue(id)
      let expected = model.nodes[id]!.value
      guard actual == expected else {
        throw Mismatch(
          description:
            "n\(id) reads \(actual), the model \(expected), after `\(step.lines()[0])`")
      }
    }
    let live = model.liveNodes()
    for id in model.order where !live.contains(id) {
      guard system.isFreed(id) else {
        throw Mismatch(
          description:
            "n\(id) is still alive after `\(step.lines()[0])`, though nothing refers to it")
      }
    }
    try checkSuspension(live: live, after: step)
  }

  /// Rule 13: a computed property is followed (attached) exactly while something observes it.
  private func checkSuspension(live: Set<NodeID>, after step: Step) throws {
    let observed = model.observedNodes(live: live)
    // (A constant, one that can never change, may be complete: never suspended. One that
    // reads nothing is complete at once.)
    let constant = model.constantNodes()
    for id in model.order
    where model.nodes[id]!.kind?.formula != nil && !constant.contains(id) && live.contains(id) {
      let suspended = system.isSuspended(id)
      if suspended == observed.contains(id) {
        throw Mismatch(
          description:
            "Computed n\(id) is \(suspended ? "suspended" : "attached") after "
            + "`\(step.lines()[0])`, though \(suspended ? "something" : "nothing") observes it")
      }
      if let was = wasSuspended[id], was != suspended {
        if suspended { coverage.suspensions += 1 } else { coverage.resumptions += 1 }
      }
      wasSuspended[id] = suspended
    }
  }

  private func countSuspendedRead(_ id: NodeID) {
    if model.nodes[id]!.kind?.formula != nil, system.isSuspended(id) {
      coverage.suspendedReads += 1
    }
  }

  private func checkInBatch(after step: Step) throws {
    try checkNoUnexpectedCalls(after: step)
    for id in model.views.sorted() {
      if let counts = system.peekInvalidations(id), counts.layouts + counts.displays > 0 {
        throw Mismatch(
          description: "View n\(id) was invalidated inside a batch, after `\(step.lines()[0])`")
      }
    }
    for id in model.order where model.isHeld(id) {
      countSuspendedRead(id)
      coverage.batchReads += 1
      let actual = system.currentValue(id)
      let expected = model.latestValue(id)
      guard actual == expected else {
        throw Mismatch(
          description:
            "Inside a batch, n\(id) reads \(actual), the model \(expected), after "
            + "`\(step.lines()[0])`")
      }
    }
  }

  private func checkTeardown() throws {
    system.releaseEverything()
    for id in model.order {
      if system.isFreed(id) {
        coverage.freedNodes += 1
      } else {
        throw Mismatch(description: "n\(id) is still alive after the program let go of everything")
      }
    }
  }
}
