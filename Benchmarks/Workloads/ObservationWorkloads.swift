import Observation

/// The workloads written with Apple's Observation (see `ObservationWorld`): `@Observable`
/// sources written directly, effects re-armed with `withObservationTracking`, computeds
/// cached or not, and each write in the world's `batch`, after which the invalidated effects
/// run.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct ObservationWorkloads: WorkloadImplementation {
  /// Whether computeds cache their value (`ObservationWorld.computed`); without, every read
  /// recomputes, as an `@Observable` class's computed property does.
  let cachesComputeds: Bool

  var name: String { cachesComputeds ? "Observation, cached" : "Observation" }
  var slug: String { cachesComputeds ? "observation-cached" : "observation" }

  func avoidablePropagation(_ check: WorkloadCheck) -> Workload {
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let head = ObservedCell(0)
    let computed1 = world.computed { head.value }
    let computed2 = world.computed {
      _ = computed1()
      return 0
    }
    let computed3 = world.computed {
      busy()
      return computed2() + 1
    }
    let computed4 = world.computed { computed3() + 2 }
    let computed5 = world.computed { computed4() + 3 }
    world.effect {
      _ = computed5()
      busy()
    }
    return Workload(counting: world.effects) {
      world.batch { head.value = 1 }
      check.equal(computed5(), 6, "computed5 after writing 1")
      for i in 0..<1_000 {
        world.batch { head.value = i }
        check.equal(computed5(), 6, "computed5 after writing \(i)")
      }
    }
  }

  func broadPropagation(_ check: WorkloadCheck) -> Workload {
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let head = ObservedCell(0)
    var last = { head.value }
    for i in 0..<50 {
      let current = world.computed { head.value + i }
      let current2 = world.computed { current() + 1 }
      world.effect { _ = current2() }
      last = current2
    }
    return Workload(counting: world.effects) { [last] in
      world.batch { head.value = 1 }
      for i in 0..<50 {
        world.batch { head.value = i }
        check.equal(last(), i + 50, "the last branch after writing \(i)")
      }
    }
  }

  func deepPropagation(_ check: WorkloadCheck) -> Workload {
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let head = ObservedCell(0)
    var current = { head.value }
    for _ in 0..<50 {
      let previous = current
      current = world.computed { previous() + 1 }
    }
    world.effect { [current] in _ = current() }
    return Workload(counting: world.effects) { [current] in
      world.batch { head.value = 1 }
      for i in 0..<50 {
        world.batch { head.value = i }
        check.equal(current(), 50 + i, "the end of the chain after writing \(i)")
      }
    }
  }

  func diamond(_ check: WorkloadCheck) -> Workload {
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let head = ObservedCell(0)
    let current = (0..<5).map { _ in world.computed { head.value + 1 } }
    let sum = world.computed { current.reduce(0) { $0 + $1() } }
    world.effect { _ = sum() }
    return Workload(counting: world.effects) {
      world.batch { head.value = 1 }
      check.equal(sum(), 10, "the sum after writing 1")
      let runs = world.effects.runs
      for i in 0..<500 {
        world.batch { head.value = i }
        check.equal(sum(), (i + 1) * 5, "the sum after writing \(i)")
      }
      check.equal(world.effects.runs - runs, 500, "effect runs for 500 writes")
    }
  }

  func mux(_ check: WorkloadCheck) -> Workload {
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let heads = (0..<100).map { _ in ObservedCell(0) }
    let mux = world.computed { heads.map(\.value) }
    let split = heads.indices.map { index in
      let element = world.computed { mux()[index] }
      return world.computed { element() + 1 }
    }
    for element in split { world.effect { _ = element() } }
    return Workload(counting: world.effects) {
      for i in 0..<10 {
        world.batch { heads[i].value = i }
        check.equal(split[i](), i + 1, "split \(i) after writing \(i)")
      }
      for i in 0..<10 {
        world.batch { heads[i].value = i * 2 }
        check.equal(split[i](), i * 2 + 1, "split \(i) after writing \(i * 2)")
      }
    }
  }

  func repeatedObservers(_ check: WorkloadCheck) -> Workload {
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let head = ObservedCell(0)
    let current = world.computed {
      var result = 0
      for _ in 0..<30 { result += head.value }
      return result
    }
    world.effect { _ = current() }
    return Workload(counting: world.effects) {
      world.batch { head.value = 1 }
      check.equal(current(), 30, "the sum after writing 1")
      let runs = world.effects.runs
      for i in 0..<100 {
        world.batch { head.value = i }
        check.equal(current(), i * 30, "the sum after writing \(i)")
      }
      check.equal(world.effects.runs - runs, 100, "effect runs for 100 writes")
    }
  }

  func triangle(_ check: WorkloadCheck) -> Workload {
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let head = ObservedCell(0)
    var list: [() -> Int] = [{ head.value }]
    for _ in 1..<10 {
      let previous = list[list.count - 1]
      list.append(world.computed { previous() + 1 })
    }
    let sum = world.computed { [list] in list.reduce(0) { $0 + $1() } }
    world.effect { _ = sum() }
    return Workload(counting: world.effects) {
      world.batch {
        head.value = 1
        check.equal(sum(), 55, "the sum read in the batch that writes 1")
      }
      let runs = world.effects.runs
      for i in 0..<100 {
        world.batch {
          head.value = i
          check.equal(sum(), 45 + i * 10, "the sum read in the batch that writes \(i)")
        }
      }
      check.equal(world.effects.runs - runs, 100, "effect runs for 100 writes")
    }
  }

  func unstable(_ check: WorkloadCheck) -> Workload {
    let world = ObservationWorld(cachesComputeds: cachesComputeds)
    let head = ObservedCell(0)
    let double = world.computed { head.value * 2 }
    let inverse = world.computed { -head.value }
    let current = world.computed {
      var result = 0
      for _ in 0..<20 { result += head.value % 2 != 0 ? double() : inverse() }
      return result
    }
    world.effect { _ = current() }
    return Workload(counting: world.effects) {
      world.batch { head.value = 1 }
      check.equal(current(), 40, "the sum after writing 1")
      let runs = world.effects.runs
      for i in 0..<100 {
        world.batch { head.value = i }
        check.equal(current(), i % 2 != 0 ? 40 * i : -20 * i, "the sum after writing \(i)")
      }
      check.equal(world.effects.runs - runs, 100, "effect runs for 100 writes")
    }
  }

  func cellx(layers: Int, _ check: WorkloadCheck) -> Workload {
    guard cachesComputeds else {
      return .notRun("uncached: each read recomputes the layers before it, 1.6^layers reads")
    }
    let world = ObservationWorld(cachesComputeds: true)
    let sources = [1, 2, 3, 4].map { ObservedCell($0) }
    var layer: [() -> Int] = sources.map { source in { source.value } }
    for _ in 0..<layers {
      let m = layer
      layer = [
        world.computed { m[1]() },
        world.computed { m[0]() - m[2]() },
        world.computed { m[1]() + m[3]() },
        world.computed { m[2]() },
      ]
      for property in layer { world.effect { _ = property() } }
    }
    let end = layer
    let expected = cellxExpected[layers]!
    var writesReversed = true
    return Workload(counting: world.effects) {
      let (before, after) =
        writesReversed ? (expected.initial, expected.written) : (expected.written, expected.initial)
      check.equal(end.map { $0() }, before, "the last layer before the batch")
      world.batch {
        for (source, value) in zip(sources, writesReversed ? [4, 3, 2, 1] : [1, 2, 3, 4]) {
          source.value = value
        }
      }
      check.equal(end.map { $0() }, after, "the last layer after the batch")
      writesReversed.toggle()
    }
  }
}
