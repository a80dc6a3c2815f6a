import Invalidating

/// The workloads written with computed properties, as an app that adopts them would:
/// `BehaviorRelay` sources, `Property { }` closures that read `value`, `subscribe` sinks as
/// effects, and each write in `batch { }`.
///
/// No `removeDuplicates()` anywhere: a computed property of an `Equatable` value cuts an equal
/// result off by itself, as the original's computeds do.
struct ComputedWorkloads: WorkloadImplementation {
  var name: String { "computed" }
  var slug: String { "computed" }

  func avoidablePropagation(_ check: WorkloadCheck) -> Workload {
    let head = BehaviorRelay(0)
    let computed1 = Property { head.value }
    let computed2 = Property<Int> {
      _ = computed1.value
      return 0
    }
    let computed3 = Property<Int> {
      busy()
      return computed2.value + 1
    }
    let computed4 = Property { computed3.value + 2 }
    let computed5 = Property { computed4.value + 3 }
    let effects = EffectCounter()
    let token = computed5.subscribe { _ in
      effects.runs += 1
      busy()
    }
    return Workload(counting: effects) {
      batch { head.accept(1) }
      check.equal(computed5.value, 6, "computed5 after writing 1")
      for i in 0..<1_000 {
        batch { head.accept(i) }
        check.equal(computed5.value, 6, "computed5 after writing \(i)")
      }
      blackHole(token)
    }
  }

  func broadPropagation(_ check: WorkloadCheck) -> Workload {
    let head = BehaviorRelay(0)
    let effects = EffectCounter()
    var last = head.asProperty()
    var tokens: [SubscriptionToken] = []
    for i in 0..<50 {
      let current = Property { head.value + i }
      let current2 = Property { current.value + 1 }
      tokens.append(current2.subscribe { _ in effects.runs += 1 })
      last = current2
    }
    return Workload(counting: effects) { [last] in
      batch { head.accept(1) }
      for i in 0..<50 {
        batch { head.accept(i) }
        check.equal(last.value, i + 50, "the last branch after writing \(i)")
      }
      blackHole(tokens)
    }
  }

  func deepPropagation(_ check: WorkloadCheck) -> Workload {
    let head = BehaviorRelay(0)
    var current = head.asProperty()
    for _ in 0..<50 {
      let previous = current
      current = Property { previous.value + 1 }
    }
    let effects = EffectCounter()
    let token = current.subscribe { _ in effects.runs += 1 }
    return Workload(counting: effects) { [current] in
      batch { head.accept(1) }
      for i in 0..<50 {
        batch { head.accept(i) }
        check.equal(current.value, 50 + i, "the end of the chain after writing \(i)")
      }
      blackHole(token)
    }
  }

  func diamond(_ check: WorkloadCheck) -> Workload {
    let head = BehaviorRelay(0)
    let current = (0..<5).map { _ in Property { head.value + 1 } }
    let sum = Property { current.reduce(0) { $0 + $1.value } }
    let effects = EffectCounter()
    let token = sum.subscribe { _ in effects.runs += 1 }
    return Workload(counting: effects) {
      batch { head.accept(1) }
      check.equal(sum.value, 10, "the sum after writing 1")
      let runs = effects.runs
      for i in 0..<500 {
        batch { head.accept(i) }
        check.equal(sum.value, (i + 1) * 5, "the sum after writing \(i)")
      }
      check.equal(effects.runs - runs, 500, "effect runs for 500 writes")
      blackHole(token)
    }
  }

  func mux(_ check: WorkloadCheck) -> Workload {
    let heads = (0..<100).map { _ in BehaviorRelay(0) }
    let mux = Property { heads.map(\.value) }
    let split = heads.indices.map { index in
      let element = Property { mux.value[index] }
      return Property { element.value + 1 }
    }
    let effects = EffectCounter()
    let tokens = split.map { $0.subscribe { _ in effects.runs += 1 } }
    return Workload(counting: effects) {
      for i in 0..<10 {
        batch { heads[i].accept(i) }
        check.equal(split[i].value, i + 1, "split \(i) after writing \(i)")
      }
      for i in 0..<10 {
        batch { heads[i].accept(i * 2) }
        check.equal(split[i].value, i * 2 + 1, "split \(i) after writing \(i * 2)")
      }
      blackHole(tokens)
    }
  }

  func repeatedObservers(_ check: WorkloadCheck) -> Workload {
    let head = BehaviorRelay(0)
    let current = Property<Int> {
      var result = 0
      for _ in 0..<30 { result += head.value }
      return result
    }
    let effects = EffectCounter()
    let token = current.subscribe { _ in effects.runs += 1 }
    return Workload(counting: effects) {
      batch { head.accept(1) }
      check.equal(current.value, 30, "the sum after writing 1")
      let runs = effects.runs
      for i in 0..<100 {
        batch { head.accept(i) }
        check.equal(current.value, i * 30, "the sum after writing \(i)")
      }
      check.equal(effects.runs - runs, 100, "effect runs for 100 writes")
      blackHole(token)
    }
  }

  func triangle(_ check: WorkloadCheck) -> Workload {
    let head = BehaviorRelay(0)
    var list = [head.asProperty()]
    for _ in 1..<10 {
      let previous = list[list.count - 1]
      list.append(Property { previous.value + 1 })
    }
    let terms = list
    let sum = Property { terms.reduce(0) { $0 + $1.value } }
    let effects = EffectCounter()
    let token = sum.subscribe { _ in effects.runs += 1 }
    return Workload(counting: effects) {
      batch {
        head.accept(1)
        check.equal(sum.value, 55, "the sum read in the batch that writes 1")
      }
      let runs = effects.runs
      for i in 0..<100 {
        batch {
          head.accept(i)
          check.equal(sum.value, 45 + i * 10, "the sum read in the batch that writes \(i)")
        }
      }
      check.equal(effects.runs - runs, 100, "effect runs for 100 writes")
      blackHole(token)
    }
  }

  func unstable(_ check: WorkloadCheck) -> Workload {
    let head = BehaviorRelay(0)
    let double = Property { head.value * 2 }
    let inverse = Property { -head.value }
    let current = Property<Int> {
      var result = 0
      for _ in 0..<20 {
        result += head.value % 2 != 0 ? double.value : inverse.value
      }
      return result
    }
    let effects = EffectCounter()
    let token = current.subscribe { _ in effects.runs += 1 }
    return Workload(counting: effects) {
      batch { head.accept(1) }
      check.equal(current.value, 40, "the sum after writing 1")
      let runs = effects.runs
      for i in 0..<100 {
        batch { head.accept(i) }
        check.equal(current.value, i % 2 != 0 ? 40 * i : -20 * i, "the sum after writing \(i)")
      }
      check.equal(effects.runs - runs, 100, "effect runs for 100 writes")
      blackHole(token)
    }
  }

  func cellx(layers: Int, _ check: WorkloadCheck) -> Workload {
    propertyCellx(layers: layers, check) { m in
      PropertyCellxLayer(
        prop1: Property { m.prop2.value },
        prop2: Property { m.prop1.value - m.prop3.value },
        prop3: Property { m.prop2.value + m.prop4.value },
        prop4: Property { m.prop3.value })
    }
  }
}
