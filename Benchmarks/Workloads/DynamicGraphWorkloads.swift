import Invalidating
import Observation

// The dynamic graphs of issue 30: the js-reactivity-benchmark's `perfTests` (its
// `src/config.ts`), layered graphs built by `src/util/dependencyGraph.ts` from a seeded
// generator, each with the sum of the read leaves and the count of node computations the
// original expects after its `iterations` steps:
//
//     ... --only=dynamic                                        # every dynamic graph
//     ... --profile=workload-dynamicDeep --iterations=1000
//
// Sources hold `j` at first; layer after layer, node `k` reads the `nSources` nodes from `k` on
// (wrapping) of the layer below. A node is static with probability `staticFraction` (it sums
// what it reads); a dynamic one reads its first input, and when that is odd skips the input
// at `first % (nSources - 1)` among the others, so its dependencies change with the values.
// Step `i` writes `i + j` to source `j = i % width` in a batch, then reads the leaves kept by
// `readFraction`. Values are doubles, as the original's JavaScript numbers are ("deep" ends
// near 3e241), and a dynamic node's parity is JavaScript's `x & 1`.
//
// The generator is the original's `pseudoRandom("seed")` (xmur3a hashing the seed into sfc32's
// state), written again here: with it the graph's plain evaluation (`DynamicGraphPlan`), with
// no reactive code, gives every expected sum of the original, which each build checks. An
// implementation's graph makes its first `stepsWhenBuilt` steps when built and its leaves'
// sum is checked against the plain evaluation's; while timed, after every `iterations` steps
// its sum is checked against the original's expected value, and its sources are written back
// to their first values so that the next pass repeats the run.
//
// One iteration is one step; the original times the `iterations` steps of a fresh graph as
// one. The "effects/iter" column counts node computations, the original's counter, which is
// shown and not checked: the original expects `expectedCount / iterations` per step of a
// framework that computes a node at most once per step and only when something it read
// changed, and checks it only of the frameworks it knows do.

/// One dynamic graph of the original, with its expected results.
struct DynamicGraphConfiguration: Sendable {
  /// The case's name: "dynamic" and the original's name in camel case.
  let name: String
  let width: Int
  /// Layers, the sources' included.
  let totalLayers: Int
  let staticFraction: Double
  /// How many nodes of the layer below each node reads.
  let nSources: Int
  /// The fraction of the leaves a step reads.
  let readFraction: Double
  /// The steps of one run of the original.
  let iterations: Int
  /// The sum of the read leaves after `iterations` steps.
  let expectedSum: Double
  /// Node computations in those steps, the graph's first computation of each read node
  /// included.
  let expectedCount: Int
}

/// The original's `perfTests`, in its order.
let dynamicGraphConfigurations: [DynamicGraphConfiguration] = [
  DynamicGraphConfiguration(
    name: "dynamicSimpleComponent", width: 10, totalLayers: 5, staticFraction: 1, nSources: 2,
    readFraction: 0.2, iterations: 600_000, expectedSum: 19_199_968, expectedCount: 3_480_000),
  DynamicGraphConfiguration(
    name: "dynamicDynamicComponent", width: 10, totalLayers: 10, staticFraction: 3.0 / 4,
    nSources: 6, readFraction: 0.2, iterations: 15_000, expectedSum: 302_310_782_860,
    expectedCount: 1_155_000),
  DynamicGraphConfiguration(
    name: "dynamicLargeWebApp", width: 1_000, totalLayers: 12, staticFraction: 0.95,
    nSources: 4, readFraction: 1, iterations: 7_000, expectedSum: 29_355_933_696_000,
    expectedCount: 1_463_000),
  DynamicGraphConfiguration(
    name: "dynamicWideDense", width: 1_000, totalLayers: 5, staticFraction: 1, nSources: 25,
    readFraction: 1, iterations: 3_000, expectedSum: 1_171_484_375_000, expectedCount: 732_000),
  DynamicGraphConfiguration(
    name: "dynamicDeep", width: 5, totalLayers: 500, staticFraction: 1, nSources: 3,
    readFraction: 1, iterations: 500, expectedSum: 3.0239642676898464e241,
    expectedCount: 1_246_500),
  DynamicGraphConfiguration(
    name: "dynamicVeryDynamic", width: 100, totalLayers: 15, staticFraction: 0.5, nSources: 6,
    readFraction: 1, iterations: 2_000, expectedSum: 15_664_996_402_790_400,
    expectedCount: 1_078_000),
]

/// The original's seeded generator: sfc32, its state hashed from the seed by xmur3a.
struct DynamicGraphRandom {
  private var a: UInt32
  private var b: UInt32
  private var c: UInt32
  private var d: UInt32

  init(seed: String = "seed") {
    var hash: UInt32 = 2_166_136_261
    for unit in seed.utf16 {
      var k = UInt32(unit) &* 3_432_918_353
      k = k << 15 | k >> 17
      hash ^= k &* 461_845_907
      hash = hash << 13 | hash >> 19
      hash = hash &* 5 &+ 3_864_292_196
    }
    hash ^= UInt32(seed.utf16.count)
    func next() -> UInt32 {
      hash ^= hash >> 16
      hash = hash &* 2_246_822_507
      hash ^= hash >> 13
      hash = hash &* 3_266_489_909
      hash ^= hash >> 16
      return hash
    }
    a = next()
    b = next()
    c = next()
    d = next()
  }

  /// The next number in [0, 1).
  mutating func next() -> Double {
    var t = a &+ b
    a = b ^ b >> 9
    b = c &+ c << 3
    c = c << 21 | c >> 11
    d = d &+ 1
    t = t &+ d
    c = c &+ t
    return Double(t) / 4_294_967_296
  }
}

/// A node's computation, as the original's: `read(i)` reads its input `i`.
@inline(__always)
func dynamicGraphNode(isStatic: Bool, inputs: Int, _ read: (Int) -> Double) -> Double {
  if isStatic {
    var sum = 0.0
    for input in 0..<inputs { sum += read(input) }
    return sum
  }
  var sum = read(0)
  // JavaScript's `sum & 1` (through ToInt32) and `sum % (inputs - 1)`: above 2^53 a double
  // is even.
  let skips = sum.magnitude < 9_007_199_254_740_992 && Int64(sum) & 1 != 0
  let skipped = skips ? Int(sum.truncatingRemainder(dividingBy: Double(inputs - 1))) + 1 : 0
  for input in 1..<inputs where input != skipped { sum += read(input) }
  return sum
}

/// A graph's random choices, made as the original makes them, and its plain evaluation.
struct DynamicGraphPlan: Sendable {
  let configuration: DynamicGraphConfiguration
  /// Whether each node of each computed layer is static, by layer then node.
  let isStatic: [[Bool]]
  /// The leaves a step reads, by index, in the original's order.
  let readLeaves: [Int]

  init(_ configuration: DynamicGraphConfiguration) {
    self.configuration = configuration
    var random = DynamicGraphRandom()
    isStatic = (1..<configuration.totalLayers).map { _ in
      (0..<configuration.width).map { _ in random.next() < configuration.staticFraction }
    }
    // The original removes leaves at random with a generator of its own, seeded alike.
    random = DynamicGraphRandom()
    var leaves = Array(0..<configuration.width)
    let skipped = (Double(configuration.width) * (1 - configuration.readFraction)).rounded()
    for _ in 0..<Int(skipped) {
      leaves.remove(at: Int((random.next() * Double(leaves.count)).rounded(.down)))
    }
    readLeaves = leaves
  }

  /// The sum of the read leaves after `steps` steps, by evaluating every node once with no
  /// reactive code: what an implementation's leaves must add up to.
  func sum(afterSteps steps: Int) -> Double {
    let width = configuration.width
    var row = (0..<width).map(Double.init)
    // Steps source, source + width, ... wrote it: the last of them before `steps` counts.
    for source in 0..<min(steps, width) {
      let last = source + (steps - 1 - source) / width * width
      row[source] = Double(last + source)
    }
    for layer in isStatic {
      let below = row
      row = (0..<width).map { node in
        dynamicGraphNode(isStatic: layer[node], inputs: configuration.nSources) {
          below[(node + $0) % width]
        }
      }
    }
    return readLeaves.reduce(0) { $0 + row[$1] }
  }

  /// The plan of `configuration`, checked against the original's expected sum.
  static func checked(_ configuration: DynamicGraphConfiguration) -> DynamicGraphPlan {
    let plan = DynamicGraphPlan(configuration)
    WorkloadCheck(workload: configuration.name, implementation: "plain evaluation").equal(
      plan.sum(afterSteps: configuration.iterations), configuration.expectedSum,
      "the sum of the leaves after \(configuration.iterations) steps")
    return plan
  }
}

/// Steps an implementation's graph takes when it is built, checked against the plain
/// evaluation before the graph is timed.
private let stepsWhenBuilt = 20

/// The steps of one implementation's graph, and their checks.
final class DynamicGraphRun {
  private let plan: DynamicGraphPlan
  private let check: WorkloadCheck
  private let write: (Int, Double) -> Void
  private let resetSources: () -> Void
  private let sumOfLeaves: () -> Double
  /// Steps made since the sources were last at their first values.
  private var stepsMade = 0

  /// A run of `plan`'s graph, its first `stepsWhenBuilt` steps made and checked: `write(j, v)`
  /// writes `v` to source `j` in a batch, `resetSources` writes every source back to its
  /// first value in one batch, `sumOfLeaves` reads the read leaves and adds them up, in the
  /// original's order.
  init(
    _ plan: DynamicGraphPlan, _ check: WorkloadCheck,
    write: @escaping (Int, Double) -> Void, resetSources: @escaping () -> Void,
    sumOfLeaves: @escaping () -> Double
  ) {
    self.plan = plan
    self.check = check
    self.write = write
    self.resetSources = resetSources
    self.sumOfLeaves = sumOfLeaves
    let steps = min(plan.configuration.iterations, stepsWhenBuilt)
    for _ in 0..<steps { writeAndRead() }
    check.equal(
      sumOfLeaves(), plan.sum(afterSteps: steps),
      "the sum of the leaves after the first \(steps) steps")
  }

  /// One step of the original: a write, then a read of the leaves; after the last step of a
  /// run, the check of the leaves' sum and the sources written back to their first values.
  func step() {
    writeAndRead()
    if _slowPath(stepsMade == plan.configuration.iterations) {
      check.equal(
        sumOfLeaves(), plan.configuration.expectedSum,
        "the sum of the leaves after \(stepsMade) steps")
      reset()
    }
  }

  private func writeAndRead() {
    let source = stepsMade % plan.configuration.width
    write(source, Double(stepsMade + source))
    stepsMade += 1
    consumed &+= Int(truncatingIfNeeded: sumOfLeaves().bitPattern)
  }

  private func reset() {
    resetSources()
    stepsMade = 0
  }
}

extension ComputedWorkloads {
  func dynamicGraph(_ configuration: DynamicGraphConfiguration, _ check: WorkloadCheck)
    -> Workload
  {
    let plan = DynamicGraphPlan.checked(configuration)
    let computations = EffectCounter()
    let sources = (0..<configuration.width).map { BehaviorRelay(Double($0)) }
    var row: [Property<Double>] = sources
    for layer in plan.isStatic {
      let below = row
      row = (0..<configuration.width).map { node in
        let inputs = (0..<configuration.nSources).map { below[(node + $0) % below.count] }
        let isStatic = layer[node]
        return Property {
          computations.runs += 1
          return dynamicGraphNode(isStatic: isStatic, inputs: inputs.count) { inputs[$0].value }
        }
      }
    }
    let leaves = plan.readLeaves.map { row[$0] }
    let run = DynamicGraphRun(
      plan, check,
      write: { source, value in batch { sources[source].accept(value) } },
      resetSources: {
        batch { for (index, source) in sources.enumerated() { source.accept(Double(index)) } }
      },
      sumOfLeaves: { leaves.reduce(0) { $0 + $1.value } })
    return Workload(counting: computations) { run.step() }
  }
}

/// A source of the dynamic graphs for Observation: one observable stored double (not generic,
/// as `ObservedCell` is not).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class ObservedNumber {
  var value: Double

  init(_ value: Double) {
    self.value = value
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservationWorkloads {
  func dynamicGraph(_ configuration: DynamicGraphConfiguration, _ check: WorkloadCheck)
    -> Workload
  {
    let reads = (1..<configuration.totalLayers).reduce(1.0) { reads, _ in
      reads * Double(configuration.nSources)
    }
    if !cachesComputeds && reads > 10_000 {
      return .notRun("uncached, a leaf's read computes its cone again: \(reads) reads")
    }
    if cachesComputeds && configuration.totalLayers > 100 {
      // A chain of stale memos recomputed from its end is quadratic (see `ObservedMemo`): 40
      // steps of "deep" did not finish in 30 seconds when the case was added.
      return .notRun("a 500-layer chain of memos: 40 steps did not finish in 30 s")
    }
    let plan = DynamicGraphPlan.checked(configuration)
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let computations = EffectCounter()
    let sources = (0..<configuration.width).map { ObservedNumber(Double($0)) }
    var row: [() -> Double] = sources.map { source in { source.value } }
    for layer in plan.isStatic {
      let below = row
      row = (0..<configuration.width).map { node in
        let inputs = (0..<configuration.nSources).map { below[(node + $0) % below.count] }
        let isStatic = layer[node]
        return world.computed {
          computations.runs += 1
          return dynamicGraphNode(isStatic: isStatic, inputs: inputs.count) { inputs[$0]() }
        }
      }
    }
    let leaves = plan.readLeaves.map { row[$0] }
    let run = DynamicGraphRun(
      plan, check,
      write: { source, value in world.batch { sources[source].value = value } },
      resetSources: {
        world.batch { for (index, source) in sources.enumerated() { source.value = Double(index) } }
      },
      sumOfLeaves: { leaves.reduce(0) { $0 + $1() } })
    return Workload(counting: computations) { run.step() }
  }
}
