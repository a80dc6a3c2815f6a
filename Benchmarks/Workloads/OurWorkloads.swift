import Invalidating

/// The workloads written with the static combinators, as an app would: `BehaviorRelay`
/// sources, `map`, `combineLatest`, `flatMapLatest`, `subscribe` sinks as effects, and each
/// write in `batch { }`.
///
/// Where the original's computed returns a value equal to the one before (`avoidable`'s
/// constant, `mux`'s split of one element) the spelling adds `removeDuplicates()`, which an
/// auto-tracked engine applies on its own; everything else is one operator per computed.
struct OurWorkloads: WorkloadImplementation {
  var name: String { "ours" }
  var slug: String { "ours" }

  func avoidablePropagation(_ check: WorkloadCheck) -> Workload {
    let head = BehaviorRelay(0)
    let computed1 = head.map { $0 }
    let computed2 = computed1.map { _ in 0 }.removeDuplicates()
    let computed3 = computed2.map {
      busy()
      return $0 + 1
    }
    let computed4 = computed3.map { $0 + 2 }
    let computed5 = computed4.map { $0 + 3 }
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
      let current = head.map { $0 + i }
      let current2 = current.map { $0 + 1 }
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
    for _ in 0..<50 { current = current.map { $0 + 1 } }
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
    let current = (0..<5).map { _ in head.map { $0 + 1 } }
    let sum = Property.combineLatest(current).map { $0.reduce(0, +) }
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
    let mux = Property.combineLatest(heads)
    let split = heads.indices.map { index in
      mux.map { $0[index] }.removeDuplicates().map { $0 + 1 }
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
    let current = head.map { value in
      var result = 0
      for _ in 0..<30 { result += value }
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
    for _ in 1..<10 { list.append(list[list.count - 1].map { $0 + 1 }) }
    let sum = Property.combineLatest(list).map { $0.reduce(0, +) }
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
    let double = head.map { $0 * 2 }
    let inverse = head.map { -$0 }
    let current = head.flatMapLatest { $0 % 2 != 0 ? double : inverse }.map { value in
      var result = 0
      for _ in 0..<20 { result += value }
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
        prop1: m.prop2.map { $0 },
        prop2: Property.combineLatest(m.prop1, m.prop3).map { $0 - $1 },
        prop3: Property.combineLatest(m.prop2, m.prop4).map { $0 + $1 },
        prop4: m.prop3.map { $0 })
    }
  }
}

/// One layer of cellx built on `Property`: four properties over the layer before.
struct PropertyCellxLayer {
  let prop1, prop2, prop3, prop4: Property<Int>
  var values: [Int] { [prop1.value, prop2.value, prop3.value, prop4.value] }
  var all: [Property<Int>] { [prop1, prop2, prop3, prop4] }
}

/// cellx for the columns built on `Property`: `next` makes each layer from the one before;
/// the sources, the effects, the iteration and its checks are the same for each.
func propertyCellx(
  layers: Int, _ check: WorkloadCheck, next: (PropertyCellxLayer) -> PropertyCellxLayer
) -> Workload {
  let sources = [1, 2, 3, 4].map { BehaviorRelay($0) }
  var layer = PropertyCellxLayer(
    prop1: sources[0], prop2: sources[1], prop3: sources[2], prop4: sources[3])
  let effects = EffectCounter()
  var tokens: [SubscriptionToken] = []
  tokens.reserveCapacity(layers * 4)
  for _ in 0..<layers {
    layer = next(layer)
    for property in layer.all { tokens.append(property.subscribe { _ in effects.runs += 1 }) }
  }
  let end = layer
  let expected = cellxExpected[layers]!
  var writesReversed = true
  return Workload(counting: effects) {
    let (before, after) =
      writesReversed ? (expected.initial, expected.written) : (expected.written, expected.initial)
    check.equal(end.values, before, "the last layer before the batch")
    batch {
      for (source, value) in zip(sources, writesReversed ? [4, 3, 2, 1] : [1, 2, 3, 4]) {
        source.accept(value)
      }
    }
    check.equal(end.values, after, "the last layer after the batch")
    writesReversed.toggle()
    blackHole(tokens)
  }
}
