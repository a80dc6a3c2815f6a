import Invalidating
import Synchronization

@testable import InvalidatingCore

/// A sink of the fuzz: checks every value it gets (consistent, never older than one before),
/// and that it never runs concurrently with itself; keeps the last value.
final class FuzzProbe: Sendable {
  private struct State {
    var calls = 0
    var last: Snap?
    /// The newest value of each relay the sink has got.
    var newest: [Int]
  }
  private let running = Atomic<Bool>(false)
  private let state: Guarded<State>
  private let expected: @Sendable ([Int]) -> Int?
  private let findings: FuzzFindings
  private let counts: FuzzCounts?
  private let label: String

  /// A probe of a node whose payload, from the relay values `seen`, is `expected(seen)`.
  init(
    _ label: String, relays: Int, findings: FuzzFindings, counts: FuzzCounts? = nil,
    expected: @escaping @Sendable ([Int]) -> Int?
  ) {
    self.counts = counts
    self.label = label
    self.expected = expected
    self.findings = findings
    state = Guarded(State(newest: Array(repeating: -1, count: relays)))
  }

  var calls: Int { state.withLock { $0.calls } }
  var last: Snap? { state.withLock { $0.last } }

  func sink(_ snap: Snap) {
    if !running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
      .exchanged
    {
      findings.record(.sinkOverlap, "\(label)")
    }
    counts?.add(\.sinkCalls)
    let call = state.withLock { state in
      state.calls += 1
      state.last = snap
      for (relay, value) in snap.seen.enumerated() where value >= 0 {
        if value < state.newest[relay] {
          findings.record(
            state.calls == 2 ? .sinkBackwardsAfterFirst : .sinkBackwards,
            "\(label) got r\(relay) = \(value) after \(state.newest[relay]) (call \(state.calls))")
        }
        state.newest[relay] = max(state.newest[relay], value)
      }
      return state.calls
    }
    if let torn = snap.torn {
      findings.record(
        .sinkTorn, "\(label) got r\(torn) with two values: \(snap.seen) (call \(call))")
    } else if expected(snap.seen) != snap.payload {
      findings.record(
        .sinkInconsistent, "\(label) got payload \(snap.payload) from \(snap.seen) (call \(call))")
    }
    running.store(false, ordering: .releasing)
  }
}

/// The fuzz's counts, from every thread.
final class FuzzCounts: Sendable {
  let reads = Counter()
  let writes = Counter()
  let batches = Counter()
  let subscriptions = Counter()
  let dynamicNodes = Counter()
  let privatePrograms = Counter()
  let suspendedReads = Counter()
  let sinkCalls = Counter()
  let privateFailures = Guarded<[UInt64]>([])

  func add(_ counter: KeyPath<FuzzCounts, Counter>) { self[keyPath: counter].increment() }

  func value(_ counter: KeyPath<FuzzCounts, Counter>) -> Int { self[keyPath: counter].value }
}

/// One round of the concurrent fuzz: a random shared graph (computed properties whose
/// branches flip, some suspended, `map`, `combineLatest`, `flatMapLatest`,
/// `removeDuplicates`, issue 26's `Property { relays.map(\.value) }`) and `threads` threads,
/// each running `operations` random operations from its own seed:
/// - writes of the relays it owns (`accept`, increasing values) and of the shared ones
///   (`modify { $0 += 1 }`), alone or in batches, each often followed by a read;
/// - reads of random nodes, inside batches too, each checked: not older than what the thread
///   wrote or read before (read-your-writes, rules 1 and 13), the payload its recipe gives on
///   the relay values it was computed from, and not torn (one relay read with two values) when
///   the thread itself is the relay's only writer (rule 3);
/// - subscriptions (checked to have had their first value when `subscribe` returns, rule 11)
///   whose sinks check every value (rules 3, 4 and 5), and cancellations;
/// - short-lived computed properties and `combineLatest`s over the shared graph (merging
///   domains), read, observed for a while and released;
/// - once in a while a private model program (`ModelCheck` on the engine, on a graph of its
///   own), which must agree with the model under the others' load.
///
/// When every thread is done: every node reads its recipe on the relays' final values, and
/// every live sink's last value is its node's value (rule 5).
///
/// The seed fixes the graph and every thread's operations; how the threads interleave is not
/// reproducible, so a finding is reported with its rate rather than a replay.
struct ConcurrentFuzz {
  let seed: UInt64
  let threads: Int
  let operations: Int

  let findings = FuzzFindings()
  let counts = FuzzCounts()
  /// The round's graph, one node a line, once it ran.
  let graphDescription = Guarded("")

  /// Runs the round: what it found is in `findings`, what it did in `counts`.
  func run() {
    let graph = FuzzGraph(seed: seed, threads: threads)
    graphDescription.withLock { $0 = graph.description }
    // Long-lived observers on a few nodes, so that some computed properties are attached
    // for the whole round while others stay suspended (or are observed only now and then).
    var random = SplitMix64(seed: seed &+ 0xF022)
    let watched = graph.nodes.indices.filter { _ in Int.random(in: 0...2, using: &random) == 0 }
    let longLived = watched.map { index in
      let probe = probe(graph, index)
      return (index, probe, graph.nodes[index].subscribe(probe.sink))
    }
    let kept = Guarded<[(Int, FuzzProbe, SubscriptionToken)]>([])
    let finished = runConcurrently(threads: threads, timeout: 300 * Sustained.slowdown) {
      thread in
      let left = runThread(thread, graph)
      kept.withLock { $0.append(contentsOf: left) }
    }
    guard finished else {
      findings.record(.deadlock, "seed \(seed)")
      return
    }
    checkFinal(graph, probes: longLived + kept.withLock { $0 })
    for seed in counts.privateFailures.withLock({ $0 }) {
      var generator = ProgramGenerator(seed: seed)
      let program = generator.program()
      if (try? ModelCheck.run(program, on: CoreSystem())) == nil {
        findings.record(.privateProgramAlone, "program seed \(seed)")
      } else {
        findings.record(.privateProgram, "program seed \(seed)")
      }
    }
  }

  private func probe(_ graph: FuzzGraph, _ index: Int) -> FuzzProbe {
    FuzzProbe(
      "sink of p\(index)", relays: graph.relays.count, findings: findings, counts: counts
    ) {
      graph.payload(of: index, $0)
    }
  }

  /// One thread's operations; returns the subscriptions it leaves, for the final check.
  private func runThread(_ thread: Int, _ graph: FuzzGraph) -> [(Int, FuzzProbe, SubscriptionToken)]
  {
    var random = SplitMix64(seed: seed ^ (UInt64(thread + 1) &* 0x9E37_79B9_7F4A_7C15))
    func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    let relayCount = graph.relays.count
    let owned = (0..<graph.ownedRelays).filter { $0 % threads == thread }
    let shared = Array(graph.ownedRelays..<relayCount)
    /// The newest value of each relay this thread wrote or read.
    var known = Array(repeating: 0, count: relayCount)
    var ownWrite = Array(repeating: false, count: relayCount)
    var probes: [(Int, FuzzProbe, SubscriptionToken)] = []
    var inBatch = false

    func check(_ snap: Snap, _ what: String, expected: Int?) {
      counts.add(\.reads)
      for (relay, value) in snap.seen.enumerated() where value >= 0 {
        if value < known[relay] {
          findings.record(
            inBatch ? .staleReadInBatch : .staleRead,
            "thread \(thread) read \(what) with r\(relay) = \(value) after "
              + "\(ownWrite[relay] ? "writing" : "reading") \(known[relay])")
        }
      }
      for (relay, value) in snap.seen.enumerated() where value > known[relay] {
        known[relay] = value
        ownWrite[relay] = false
      }
      // Only what no other thread wrote meanwhile can be judged: a relay written by this
      // thread alone. (Of two values of one relay, `Snap` keeps the older, which the check
      // above compares with this thread's own write; a mismatch with other writers may come
      // from a read not recorded in the value, as `flatMapLatest`'s of its selector.)
      let othersWrite = snap.seen.indices.contains { snap.seen[$0] >= 0 && !owned.contains($0) }
      if let torn = snap.torn {
        findings.record(
          owned.contains(torn) ? .tornOwnRead : .tornRead,
          "thread \(thread) read \(what) with two values of r\(torn): \(snap.seen)")
      } else if expected != snap.payload {
        findings.record(
          othersWrite ? .tornRead : .inconsistentRead,
          "thread \(thread) read \(what): \(snap.payload) from \(snap.seen)")
      }
    }
    func read(_ index: Int) {
      let node = graph.nodes[index]
      if node.node.isUnfollowedLocked { counts.add(\.suspendedReads) }
      let snap = node.value
      check(
        snap, "p\(index) = \(graph.recipes[index])", expected: graph.payload(of: index, snap.seen))
    }
    func anyNode() -> Int { int(0...graph.nodes.count - 1) }
    func writeOwn() {
      guard let relay = owned.randomElement(using: &random) else { return }
      let value = known[relay] + int(1...3)
      graph.relays[relay].accept(value)
      known[relay] = value
      ownWrite[relay] = true
      counts.add(\.writes)
    }
    func writeShared() {
      let relay = shared[int(0...shared.count - 1)]
      let value = graph.relays[relay].modify { value -> Int in
        value += 1
        return value
      }
      if value > known[relay] {
        known[relay] = value
        ownWrite[relay] = true
      }
      counts.add(\.writes)
    }
    func subscribe(_ index: Int) {
      let probe = probe(graph, index)
      let token = graph.nodes[index].subscribe(probe.sink)
      if probe.calls == 0 { findings.record(.lateFirstValue, "thread \(thread), p\(index)") }
      probes.append((index, probe, token))
      counts.add(\.subscriptions)
    }
    /// A computed property of this thread's own over the shared graph.
    func dynamicComputed() {
      let formula: FuzzFormula = .branch(
        .relay(int(0...relayCount - 1)), .node(anyNode()),
        int(0...1) == 0 ? .node(anyNode()) : .relay(owned.first ?? 0))
      let property = FuzzGraph.computed(formula, relays: graph.relays, nodes: graph.nodes)
      let expected: @Sendable ([Int]) -> Int? = { graph.payload(of: formula, $0) }
      counts.add(\.dynamicNodes)
      var snap = property.value
      check(snap, "Property { \(formula) }", expected: expected(snap.seen))
      if int(0...1) == 0 {
        let probe = FuzzProbe(
          "sink of Property { \(formula) }", relays: relayCount, findings: findings,
          counts: counts, expected: expected)
        let token = property.subscribe(probe.sink)
        if probe.calls == 0 { findings.record(.lateFirstValue, "thread \(thread), dynamic") }
        writeOwn()
        snap = property.value
        check(snap, "Property { \(formula) }", expected: expected(snap.seen))
        token.cancel()
      }
    }
    /// A `combineLatest` of two shared nodes, merging their domains, read and released.
    func dynamicCombine() {
      let (a, b) = (anyNode(), anyNode())
      let property = FuzzGraph.make(.combine(a, b), relays: graph.relays, nodes: graph.nodes)
      counts.add(\.dynamicNodes)
      let snap = property.value
      check(
        snap, "combineLatest(p\(a), p\(b))",
        expected: {
          guard let first = graph.payload(of: a, snap.seen),
            let second = graph.payload(of: b, snap.seen)
          else { return nil }
          return Snap.mix(first, second)
        }())
    }

    for operation in 0..<operations {
      switch int(0...99) {
      case 0..<20:
        writeOwn()
        // Issue 26's shape half the time: every relay read right after one's own write.
        if int(0...1) == 0 { read(0) } else if int(0...1) == 0 { read(anyNode()) }
      case 20..<26:
        writeShared()
        if int(0...1) == 0 { read(anyNode()) }
      case 26..<34:
        batch {
          inBatch = true
          defer { inBatch = false }
          for _ in 0..<int(1...3) {
            if int(0...3) == 0 { writeShared() } else { writeOwn() }
            // Inside a batch, reads see the batch's writes at once (rule 2).
            if int(0...1) == 0 { read(anyNode()) }
          }
        }
        counts.add(\.batches)
        read(anyNode())
      case 34..<58:
        read(anyNode())
      case 58..<67:
        subscribe(anyNode())
        if probes.count > 4 { probes.removeFirst().2.cancel() }
      case 67..<72:
        if !probes.isEmpty { probes.remove(at: int(0...probes.count - 1)).2.cancel() }
      case 72..<84:
        dynamicComputed()
      case 84..<90:
        dynamicCombine()
      case 90..<91:
        let programSeed = seed &* 1_000_003 &+ UInt64(thread * 100_000 + operation)
        var generator = ProgramGenerator(seed: programSeed)
        if (try? ModelCheck.run(generator.program(), on: CoreSystem())) == nil {
          counts.privateFailures.withLock { $0.append(programSeed) }
        }
        counts.add(\.privatePrograms)
      default:
        read(anyNode())
      }
    }
    return probes
  }

  /// Once the writers stopped: every node reads its recipe on the final values, and every
  /// live sink ended on its node's value.
  private func checkFinal(_ graph: FuzzGraph, probes: [(Int, FuzzProbe, SubscriptionToken)]) {
    let finals = graph.relays.map(\.value)
    for (index, node) in graph.nodes.enumerated() {
      #if DEBUG
        Engine.checkInvariants(around: node.node)
      #endif
      let snap = node.value
      let stale = snap.seen.enumerated().filter {
        $0.element >= 0 && $0.element != finals[$0.offset]
      }
      if snap.torn != nil || !stale.isEmpty || graph.payload(of: index, snap.seen) != snap.payload {
        findings.record(.finalValue, "p\(index) reads \(snap.seen), the relays are \(finals)")
      }
    }
    for (index, probe, token) in probes {
      let value = graph.nodes[index].value
      if probe.last != value {
        findings.record(
          .finalSink,
          "sink of p\(index) ended on \(probe.last.map { "\($0.seen)" } ?? "nothing"), "
            + "p\(index) reads \(value.seen)")
      }
      token.cancel()
    }
  }
}
