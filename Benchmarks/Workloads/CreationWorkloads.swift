import Invalidating

// The creation cases of issue 30: the js-reactivity-benchmark's `src/sBench.ts` (after S.js's
// benchmark) times making sources and computations. Its shapes are kept and its counts
// divided by 100 (1,000 where it has 100,000), so that one iteration takes about a millisecond:
//
//     ... --only=create                                         # every creation case
//     ... --profile=workload-createComputations1to4 --iterations=100
//
// Unlike the original, whose sources are made before the clock starts, one iteration makes the
// sources too and releases everything it made at its end: Observation has no way to end a
// tracking but a change of what it read or the release of the observed objects, so a graph
// that outlived its iteration would keep its registrations. `createDataSignals` is the
// sources' share of the others. Each computation is read once by an effect (a subscription,
// or a `withObservationTracking`), which is what makes a lazy computation compute.

/// One creation case: how many sources, how many computations, and which sources each reads.
struct CreationShape: Sendable {
  /// The original's name of the case.
  let name: String
  /// How many sources an iteration makes; source `j` holds `j`.
  let sources: Int
  /// The sources each computation reads, by index, one array per computation; a computation
  /// that reads none (`createComputations0to1`) holds its own index.
  let inputs: [[Int]]

  /// The sum of every computation's value, by plain arithmetic: what the effects must receive.
  var expectedSum: Int {
    inputs.indices.reduce(0) { sum, index in
      sum + (inputs[index].isEmpty ? index : inputs[index].reduce(0, +))
    }
  }

  /// `computations` computations, each reading `arity` consecutive sources of its own.
  static func manyToOne(_ name: String, arity: Int, computations: Int) -> CreationShape {
    CreationShape(
      name: name, sources: arity * computations,
      inputs: (0..<computations).map { index in Array(index * arity..<(index + 1) * arity) })
  }

  /// `sources` sources, each read by `readers` computations of its own.
  static func oneToMany(_ name: String, sources: Int, readers: Int) -> CreationShape {
    CreationShape(
      name: name, sources: sources,
      inputs: (0..<sources).flatMap { source in Array(repeating: [source], count: readers) })
  }
}

/// The original's creation cases, in its order, at a hundredth of its counts.
let creationShapes: [CreationShape] = [
  CreationShape(name: "createDataSignals", sources: 1_000, inputs: []),
  CreationShape(
    name: "createComputations0to1", sources: 0, inputs: Array(repeating: [], count: 1_000)),
  .manyToOne("createComputations1to1", arity: 1, computations: 1_000),
  .manyToOne("createComputations2to1", arity: 2, computations: 500),
  .manyToOne("createComputations4to1", arity: 4, computations: 250),
  .manyToOne("createComputations1000to1", arity: 1_000, computations: 1),
  .oneToMany("createComputations1to2", sources: 500, readers: 2),
  .oneToMany("createComputations1to4", sources: 250, readers: 4),
  .oneToMany("createComputations1to8", sources: 125, readers: 8),
  .oneToMany("createComputations1to1000", sources: 1, readers: 1_000),
]

/// The values a creation case's effects received, summed. Safe as `@unchecked Sendable`: see
/// `EffectCounter`.
final class CreationTally: @unchecked Sendable {
  var total = 0
}

extension ComputedWorkloads {
  func creation(_ shape: CreationShape, _ check: WorkloadCheck) -> Workload {
    let effects = EffectCounter()
    let tally = CreationTally()
    let expectedSum = shape.expectedSum
    return Workload(counting: effects) {
      let runs = effects.runs
      tally.total = 0
      let sources = (0..<shape.sources).map { BehaviorRelay($0) }
      var tokens: [SubscriptionToken] = []
      tokens.reserveCapacity(shape.inputs.count)
      for (index, indices) in shape.inputs.enumerated() {
        let computed: Property<Int>
        switch indices.count {
        case 0: computed = Property { index }
        case 1:
          let source = sources[indices[0]]
          computed = Property { source.value }
        default:
          let inputs = indices.map { sources[$0] }
          computed = Property { inputs.reduce(0) { $0 + $1.value } }
        }
        tokens.append(
          computed.subscribe { value in
            effects.runs += 1
            tally.total += value
          })
      }
      check.equal(effects.runs - runs, shape.inputs.count, "effect runs")
      check.equal(tally.total, expectedSum, "the sum the effects received")
      blackHole(tokens)
      blackHole(sources)
    }
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservationWorkloads {
  func creation(_ shape: CreationShape, _ check: WorkloadCheck) -> Workload {
    let effects = EffectCounter()
    let tally = CreationTally()
    let expectedSum = shape.expectedSum
    return Workload(counting: effects) {
      tally.total = 0
      let world = ObservationWorld(cachesComputeds: cachesComputeds)
      let sources = (0..<shape.sources).map { ObservedCell($0) }
      for (index, indices) in shape.inputs.enumerated() {
        let computed: () -> Int
        switch indices.count {
        case 0: computed = world.computed { index }
        case 1:
          let source = sources[indices[0]]
          computed = world.computed { source.value }
        default:
          let inputs = indices.map { sources[$0] }
          computed = world.computed { inputs.reduce(0) { $0 + $1.value } }
        }
        world.effect { tally.total += computed() }
      }
      effects.runs += world.effects.runs
      check.equal(world.effects.runs, shape.inputs.count, "effect runs")
      check.equal(tally.total, expectedSum, "the sum the effects received")
      blackHole(sources)
    }
  }
}
