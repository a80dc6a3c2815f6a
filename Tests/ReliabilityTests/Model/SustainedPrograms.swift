import Foundation
import Invalidating
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

/// Random programs under sustained multi-thread load (issue 13): writers that never pause,
/// long-lived domains that keep merging, short-lived graphs created and released over them.
///
/// Each program builds a random long-lived graph (relays, maps, pairs, deduplicated values)
/// with probe sinks on random nodes, then runs three threads at once for a fixed number of
/// steps each: writes to the relays the thread owns (values increasing, so a probe on a relay
/// can check order), batches of writes, atomic `modify`, probes subscribed and cancelled, and
/// short-lived derived values built over random long-lived nodes (merging their domains), read
/// and released. When the threads are done, it checks what the contract promises once writers
/// stop:
/// - every live probe's last value is its node's value, and no probe ran concurrently with
///   itself, nor saw a relay's values out of order;
/// - every pure node's value is its recipe evaluated on the relays' final values;
/// - the engine's invariants hold around every node (`Engine.checkInvariants`);
/// - every short-lived node, and every node of the program once released, has been freed.
///
/// A livelock, a lost update, a leak of the kind found by hand in issue 13 makes the generator
/// find it. `RELIABILITY_SUSTAINED_PROGRAMS` sets how many programs run (default 40).
@Suite("Model-based random programs under sustained multi-thread load", .serialized)
struct SustainedProgramTests {
  static let seeds: Range<UInt64> = {
    let environment = ProcessInfo.processInfo.environment
    let first = environment["RELIABILITY_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0000
    let count = environment["RELIABILITY_SUSTAINED_PROGRAMS"].flatMap { UInt64($0) } ?? 40
    return first..<first + count
  }()
  static let threads = 3
  static let stepsPerThread = Sustained.isUnderThreadSanitizer ? 150 : 600

  @Test("Concurrent programs end consistent, in order, with every graph freed")
  func concurrentProgramsEndConsistent() {
    var failures: [String] = []
    var totals = (writes: 0, batches: 0, derived: 0, probes: 0)
    for seed in Self.seeds {
      let program = SustainedProgram(seed: seed)
      let outcome = program.run(threads: Self.threads, steps: Self.stepsPerThread)
      totals.writes += outcome.writes
      totals.batches += outcome.batches
      totals.derived += outcome.shortLived
      totals.probes += outcome.probes
      if let problem = outcome.problem {
        failures.append("seed \(seed): \(problem)")
        if failures.count == 3 { break }
      }
    }
    #expect(failures == [])
    print(
      """
      Sustained model-based: \(Self.seeds.count) programs x \(Self.threads) threads x \
      \(Self.stepsPerThread) steps: \(totals.writes) writes, \(totals.batches) batches, \
      \(totals.derived) short-lived graphs built and freed, \(totals.probes) probes
      """)
  }
}

/// How a long-lived node's value follows from the relays: evaluated on their final values.
indirect enum Recipe: Sendable {
  case relay(Int)
  case map(Recipe, multiplier: Int, offset: Int)
  case pair(Recipe, Recipe)
  /// Not checked by value: history decides what it held back.
  case deduplicated(Recipe)

  func evaluate(_ relays: [Int]) -> Int? {
    switch self {
    case .relay(let index): return relays[index]
    case .map(let input, let multiplier, let offset):
      return input.evaluate(relays).map { $0 &* multiplier &+ offset }
    case .pair(let first, let second):
      guard let a = first.evaluate(relays), let b = second.evaluate(relays) else { return nil }
      return Self.mix(a, b)
    case .deduplicated(let input): return input.evaluate(relays)
    }
  }

  static func mix(_ a: Int, _ b: Int) -> Int { (a &* 0x3F1) &+ b &+ 7 }
}

/// One random program: its long-lived graph and what each thread does.
struct SustainedProgram {
  let seed: UInt64

  struct Outcome {
    var writes = 0
    var batches = 0
    var shortLived = 0
    var probes = 0
    var problem: String?
  }

  /// A probe on a node: the sink watching it, and the token keeping it.
  final class Watch: Sendable {
    let watcher: Probe
    let node: Property<Int>
    let token: SubscriptionToken
    init(node: Property<Int>, inOrder: Bool) {
      let increasing: @Sendable (Int, Int) -> Bool = { previous, next in previous <= next }
      let watcher = Probe(isInOrder: inOrder ? increasing : nil)
      self.watcher = watcher
      self.node = node
      self.token = node.subscribe(watcher.sink)
    }
  }

  func run(threads: Int, steps: Int) -> Outcome {
    var random = SplitMix64(seed: seed)
    let relayCount = Int.random(in: 3...5, using: &random)
    let relays = (0..<relayCount).map { _ in BehaviorRelay(0) }
    var nodes: [(Property<Int>, Recipe)] = relays.enumerated().map { ($1, .relay($0)) }
    for _ in 0..<Int.random(in: 3...8, using: &random) {
      let (input, recipe) = nodes.randomElement(using: &random)!
      switch Int.random(in: 0...2, using: &random) {
      case 0:
        let multiplier = Int.random(in: 1...3, using: &random)
        let offset = Int.random(in: 0...5, using: &random)
        nodes.append(
          (
            input.map { $0 &* multiplier &+ offset },
            .map(recipe, multiplier: multiplier, offset: offset)
          )
        )
      case 1:
        let (other, otherRecipe) = nodes.randomElement(using: &random)!
        nodes.append(
          (
            Property.combineLatest(input, other).map { Recipe.mix($0, $1) },
            .pair(recipe, otherRecipe)
          ))
      default:
        nodes.append((input.removeDuplicates(), .deduplicated(recipe)))
      }
    }
    // Every relay has one writer, writing increasing values, and every recipe is
    // nondecreasing in its inputs: so every node only grows, and every probe checks order.
    let probes = (0..<Int.random(in: 3...7, using: &random)).map { _ in
      Watch(node: nodes[Int.random(in: 0..<nodes.count, using: &random)].0, inOrder: true)
    }
    let nodeList = nodes
    // Shared by the threads: in objects, not as captured noncopyable locals (a captured
    // `Mutex` local is boxed, and ThreadSanitizer reports its accesses as races).
    let shortLived = Guarded<[Weak<AnyNode>]>([])
    let disorder = Guarded(0)
    let counts = Guarded(Outcome())
    let finished = runConcurrently(threads: threads, timeout: 300) { thread in
      var random = SplitMix64(seed: seed &+ UInt64(thread) &* 0x9E37_79B9)
      let owned = relays.indices.filter { $0 % threads == thread }
      var next = 1
      var local = Outcome()
      var tokens: [(SubscriptionToken, Probe)] = []
      for _ in 0..<steps {
        switch Int.random(in: 0...99, using: &random) {
        case 0..<50 where !owned.isEmpty:
          relays[owned.randomElement(using: &random)!].accept(next)
          next += 1
          local.writes += 1
        case 50..<65 where !owned.isEmpty:
          batch {
            for _ in 0..<Int.random(in: 2...4, using: &random) {
              relays[owned.randomElement(using: &random)!].accept(next)
              next += 1
              local.writes += 1
            }
          }
          local.batches += 1
        case 65..<70 where !owned.isEmpty:
          let value = next
          relays[owned.randomElement(using: &random)!].modify { $0 = value }
          next += 1
          local.writes += 1
        case 70..<80:
          // A subscriber arriving while others write: it must never go backwards either.
          let node = nodeList.randomElement(using: &random)!.0
          let probe = Probe(isInOrder: { previous, next in previous <= next })
          tokens.append((node.subscribe(probe.sink), probe))
          if tokens.count > 4 {
            let (token, probe) = tokens.removeFirst()
            token.cancel()
            if probe.outOfOrder > 0 || probe.overlaps > 0 { disorder.withLock { $0 += 1 } }
          }
          local.probes += 1
        default:
          // A short-lived graph over long-lived nodes, possibly merging their domains.
          let a = nodeList.randomElement(using: &random)!.0
          let b = nodeList.randomElement(using: &random)!.0
          let derived = Property.combineLatest(a, b).map { $0 &+ $1 }.removeDuplicates()
          _ = derived.value
          let token = derived.subscribe { _ in }
          shortLived.withLock { $0.append(Weak(derived.node)) }
          token.cancel()
          local.shortLived += 1
        }
      }
      for (token, probe) in tokens {
        token.cancel()
        if probe.outOfOrder > 0 || probe.overlaps > 0 { disorder.withLock { $0 += 1 } }
      }
      let done = local
      counts.withLock {
        $0.writes += done.writes
        $0.batches += done.batches
        $0.shortLived += done.shortLived
        $0.probes += done.probes
      }
    }
    var outcome = counts.withLock { $0 }
    if disorder.withLock({ $0 }) > 0 {
      outcome.problem = "a subscriber that came while others wrote went backwards or overlapped"
      return outcome
    }
    outcome.problem = check(
      finished: finished, relays: relays, nodes: nodeList, probes: probes,
      shortLived: shortLived.withLock { $0 })
    return outcome
  }

  private func check(
    finished: Bool, relays: [BehaviorRelay<Int>], nodes: [(Property<Int>, Recipe)],
    probes: [Watch], shortLived: [Weak<AnyNode>]
  ) -> String? {
    guard finished else { return "the threads did not finish: a deadlock or a livelock" }
    let finals = relays.map(\.value)
    for (index, (node, recipe)) in nodes.enumerated() {
      Engine.checkInvariants(around: node.node)
      if case .deduplicated = recipe { continue }
      if let expected = recipe.evaluate(finals), node.value != expected {
        return "node \(index) reads \(node.value), its recipe gives \(expected)"
      }
    }
    for (index, probe) in probes.enumerated() {
      if probe.watcher.overlaps > 0 { return "probe \(index) ran concurrently with itself" }
      if probe.watcher.outOfOrder > 0 { return "probe \(index) saw a relay's values out of order" }
      if probe.watcher.last != probe.node.value {
        return
          "probe \(index) ended on \(probe.watcher.last ?? -1), its node reads \(probe.node.value)"
      }
    }
    let alive = shortLived.filter { $0.object != nil }.count
    if alive > 0 { return "\(alive) short-lived nodes are still alive" }
    return nil
  }
}

/// A value shared by threads, guarded by a lock.
final class Guarded<Value>: @unchecked Sendable {
  // Safe: `value` is only touched while `lock` is held.
  private let lock = Lock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
