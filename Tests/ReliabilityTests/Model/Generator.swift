/// SplitMix64: a tiny generator whose whole state is one `UInt64`, so a seed replays a run
/// exactly on every platform and toolchain (the standard library's generator is not seedable).
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

/// Builds a random program from a seed: a few sources, then a random mix of derivations
/// (operators, and computed properties whose reads change with the values), writes, nested
/// batches, subscriptions (some writing, cancelling or reading re-entrantly), cancels and
/// releases.
///
/// The generator keeps a rough picture of what exists, to make mostly meaningful steps; it
/// need not be exact, since steps naming things that do not exist are skipped when run.
struct ProgramGenerator {
  private var random: SplitMix64
  private var nextNode = 0
  private var nextSink = 0
  private var sources: [NodeID] = []
  /// Nodes the program still holds (sources and unreleased derived nodes).
  private var held: [NodeID] = []
  private var derived: [NodeID] = []
  /// Computed properties the program still holds.
  private var computed: [NodeID] = []
  private var sinks: [SinkID] = []
  /// Whether to use what only the public layers have: views and bindings.
  private let publicLayers: Bool
  /// Views no binding writes, which the program sets itself.
  private var freeViews: [NodeID] = []
  /// Steps to emit before any new one (a new view's binding).
  private var queued: [Step] = []

  init(seed: UInt64, publicLayers: Bool = false) {
    random = SplitMix64(seed: seed)
    self.publicLayers = publicLayers
  }

  /// A program of a few sources and `8...40` further steps.
  mutating func program() -> [Step] {
    var steps: [Step] = []
    for _ in 0..<int(2...5) {
      let id = newNode()
      sources.append(id)
      held.append(id)
      steps.append(.source(id, initial: int(0...7)))
    }
    for _ in 0..<int(8...40) { steps.append(step(depth: 0)) }
    return steps
  }

  private mutating func step(depth: Int) -> Step {
    if !queued.isEmpty { return queued.removeFirst() }
    if publicLayers && chance(6) { return view() }
    if depth > 0 {
      // Inside a batch: mostly writes, and every other step at a lower rate.
      switch int(0...99) {
      case 0..<60: return write()
      case 60..<70 where depth < 3: return .batch(batchBody(depth: depth + 1))
      case 60..<78: return subscribe()
      case 78..<90: return derive() ?? write()
      case 90..<95: return cancel() ?? write()
      default: return release() ?? write()
      }
    }
    switch int(0...99) {
    case 0..<3:
      // A source made mid-program starts in a domain of its own: computed properties that
      // read it in one branch only then switch domains when the branch flips.
      let id = newNode()
      sources.append(id)
      held.append(id)
      return .source(id, initial: int(0...7))
    case 3..<22: return derive() ?? write()
    case 22..<52: return write()
    case 52..<64: return .batch(batchBody(depth: 1))
    case 64..<82: return subscribe()
    case 82..<92: return cancel() ?? write()
    default: return release() ?? write()
    }
  }

  private mutating func batchBody(depth: Int) -> [Step] {
    (0..<int(1...6)).map { _ in step(depth: depth) }
  }

  private mutating func write() -> Step {
    if !freeViews.isEmpty && chance(20) { return .write(pick(freeViews), int(0...7)) }
    return .write(pick(sources), int(0...7))
  }

  /// A view, bound (most of the time) to a node: the binding is the next step.
  private mutating func view() -> Step {
    let id = newNode()
    if chance(75) {
      let sink = nextSink
      nextSink += 1
      sinks.append(sink)
      queued.append(.subscribe(sink, to: pick(held), emitsCurrentValue: true, .forward(to: id)))
    } else {
      freeViews.append(id)
    }
    held.append(id)
    derived.append(id)
    return .view(id, initial: int(0...7))
  }

  private mutating func derive() -> Step? {
    let kind: NodeKind
    switch int(0...99) {
    case 0..<35: return compute()
    case 35..<55: kind = .map(mapFunction())
    case 55..<70: kind = .combine
    case 70..<80: kind = .removeDuplicates
    case 80..<90: kind = .filter(modulus: int(2...3), residue: int(0...1))
    default: kind = .switchLatest
    }
    let count = int(kind.arity)
    let inputs = (0..<count).map { _ in input() }
    let id = newNode()
    held.append(id)
    derived.append(id)
    return .derive(id, kind, inputs: inputs)
  }

  /// An input for a new node: recent nodes first, to grow deep graphs (and diamonds) rather
  /// than wide ones, and computed properties often, to read them in every state.
  private mutating func input() -> NodeID {
    if !computed.isEmpty && chance(25) { return pick(computed.suffix(3)) }
    return chance(60) ? pick(held.suffix(4)) : pick(held)
  }

  /// A computed property: most often a branch whose condition and arms are reads (so what it
  /// reads flips with the values), sometimes with a constant arm, reading other computed
  /// properties (which it may be the only one to observe, or may not read at all in the branch
  /// it takes: suspended).
  private mutating func compute() -> Step {
    let formula: Formula
    switch int(0...99) {
    case 0..<45:
      // `x % 2 == 0 ? y : z`, possibly `-1` for one arm (issue 26's `s ? m : -1`).
      formula = .branch(
        .read(input()), even: chance(20) ? .constant(-1) : self.formula(depth: 1),
        odd: chance(20) ? .constant(-1) : self.formula(depth: 1))
    default:
      formula = self.formula(depth: 0)
    }
    let id = newNode()
    held.append(id)
    derived.append(id)
    computed.append(id)
    return .derive(id, .computed(formula), inputs: formula.mentioned)
  }

  private mutating func formula(depth: Int) -> Formula {
    switch int(0...99) {
    case 0..<30 where depth < 2:
      return .branch(
        formula(depth: depth + 1), even: formula(depth: depth + 1), odd: formula(depth: depth + 1))
    case 30..<45 where depth < 2: return .mix(formula(depth: depth + 1), formula(depth: depth + 1))
    case 45..<55 where depth < 2: return .apply(mapFunction(), formula(depth: depth + 1))
    case 55..<60: return .constant(int(0...7))
    default: return .read(input())
    }
  }

  private mutating func mapFunction() -> MapFunction {
    switch int(0...4) {
    case 0: return .add(int(1...3))
    case 1: return .multiply(int(2...3))
    case 2: return .half
    case 3: return .modulo(int(2...4))
    default: return .negate
    }
  }

  private mutating func subscribe() -> Step {
    let id = nextSink
    nextSink += 1
    let condition = Condition(modulus: int(2...4), residue: 0)
    let behavior: SinkBehavior
    switch int(0...99) {
    case 0..<45:
      behavior = .record
    case 45..<55:
      // A sink reading other state, often a computed property (maybe a suspended one).
      behavior = .read(!computed.isEmpty && chance(60) ? pick(computed) : pick(held))
    case 55..<62 where publicLayers:
      behavior = .forward(to: pick(sources))
    case 55..<85:
      let writes = (0..<int(1...2)).map { _ in WriteAction(source: pick(sources), value: int(0...7))
      }
      behavior = .write(
        when: Condition(modulus: condition.modulus, residue: int(0...condition.modulus - 1)),
        times: int(1...2), writes)
    default:
      let target = sinks.isEmpty || chance(30) ? id : pick(sinks.suffix(5))
      behavior = .cancel(target, when: condition)
    }
    sinks.append(id)
    let node = !computed.isEmpty && chance(30) ? pick(computed) : pick(held)
    return .subscribe(id, to: node, emitsCurrentValue: chance(80), behavior)
  }

  private mutating func cancel() -> Step? {
    guard !sinks.isEmpty else { return nil }
    let index = int(0...sinks.count - 1)
    return .cancel(sinks.remove(at: index))
  }

  private mutating func release() -> Step? {
    guard !derived.isEmpty else { return nil }
    let id = derived.remove(at: int(0...derived.count - 1))
    held.removeAll { $0 == id }
    computed.removeAll { $0 == id }
    freeViews.removeAll { $0 == id }
    return .release(id)
  }

  // MARK: Randomness

  private mutating func newNode() -> NodeID {
    defer { nextNode += 1 }
    return nextNode
  }

  private mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &random)
  }

  private mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

  private mutating func pick<C: Collection>(_ items: C) -> C.Element where C.Index == Int {
    items[items.startIndex + int(0...items.count - 1)]
  }
}
