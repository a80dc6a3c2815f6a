import Invalidating

@testable import InvalidatingCore

/// The value every node of the concurrent fuzz carries: a payload computed from relay values,
/// and which value of each relay it was computed from.
///
/// With it a reader can check, from the value alone, what it was computed from: that it is
/// not older than what the reader wrote or read before (read-your-writes, rules 1 and 13),
/// that the payload is the recipe evaluated on those relay values (the branches taken were
/// the ones those values select), and that no relay was read with two values (a torn
/// combination, rule 3).
struct Snap: Equatable, Sendable {
  var payload: Int
  /// For each relay, the value read, or -1 where it was not read (relay values are ≥ 0).
  var seen: [Int]
  /// A relay read with two different values, if any.
  var torn: Int?

  init(relays: Int) {
    payload = 0
    seen = Array(repeating: -1, count: relays)
  }

  /// Records that relay `relay` was read with `value`: of two values of one relay, the
  /// older one is kept, so that a read checks that the older one is not older than what the
  /// reader knew.
  mutating func absorb(relay: Int, _ value: Int) {
    if seen[relay] == -1 {
      seen[relay] = value
    } else if seen[relay] != value {
      if torn == nil { torn = relay }
      seen[relay] = min(seen[relay], value)
    }
  }

  /// Records what `other` was computed from.
  mutating func absorb(_ other: Snap) {
    if torn == nil { torn = other.torn }
    for (relay, value) in other.seen.enumerated() where value >= 0 { absorb(relay: relay, value) }
  }

  /// A snap of `self`'s reads with `payload`.
  func with(payload: Int) -> Snap {
    var copy = self
    copy.payload = payload
    return copy
  }

  static func mix(_ a: Int, _ b: Int) -> Int { (a &* 0x3F1) &+ b &+ 7 }
}

/// The body of a computed property of the fuzz: reads of relays (`Int`) and of other nodes
/// (`Snap`), combined; only the branch taken is read.
indirect enum FuzzFormula: Sendable, CustomStringConvertible {
  case relay(Int)
  case node(Int)
  case constant(Int)
  /// `condition % 2 == 0 ? even : odd`.
  case branch(FuzzFormula, FuzzFormula, FuzzFormula)
  case mix(FuzzFormula, FuzzFormula)

  /// The payload, with `read(relay)` and `node(index)` giving the values read, in the
  /// order a run reads them; `nil` once either gives `nil`.
  func evaluate(relay read: (Int) -> Int?, node: (Int) -> Int?) -> Int? {
    switch self {
    case .relay(let index): return read(index)
    case .node(let index): return node(index)
    case .constant(let value): return value
    case .branch(let condition, let even, let odd):
      guard let selector = condition.evaluate(relay: read, node: node) else { return nil }
      return (floorMod(selector, 2) == 0 ? even : odd).evaluate(relay: read, node: node)
    case .mix(let first, let second):
      guard let a = first.evaluate(relay: read, node: node),
        let b = second.evaluate(relay: read, node: node)
      else { return nil }
      return Snap.mix(a, b)
    }
  }

  var description: String {
    switch self {
    case .relay(let index): return "r\(index).value"
    case .node(let index): return "p\(index).value.payload"
    case .constant(let value): return "\(value)"
    case .branch(let condition, let even, let odd):
      return "(\(condition) % 2 == 0 ? \(even) : \(odd))"
    case .mix(let first, let second): return "mix(\(first), \(second))"
    }
  }
}

/// How a node of the fuzz is made, and so what its payload is for given relay values.
enum FuzzRecipe: Sendable, CustomStringConvertible {
  /// `Property { ... }`: a computed property, suspended while nothing observes it.
  case computed(FuzzFormula)
  /// `Property { relays.map(\.value) }`: issue 26's shape, every relay read.
  case allRelays
  /// `node.map { payload + offset }`.
  case map(Int, offset: Int)
  /// `combineLatest(a, b).map { mix }`.
  case combine(Int, Int)
  /// `relay.asProperty().flatMapLatest { candidates[value % count] }`, with the selector's
  /// value added to what the inner value was computed from: by a `map` the transform makes
  /// (`makesInner`, as users write it), or by a `combineLatest` with the selector after it.
  case switchLatest(selector: Int, among: [Int], makesInner: Bool)
  case removeDuplicates(Int)

  var description: String {
    switch self {
    case .computed(let formula): return "Property { \(formula) }"
    case .allRelays: return "Property { relays.map(\\.value) }"
    case .map(let input, let offset): return "p\(input).map { payload + \(offset) }"
    case .combine(let a, let b): return "combineLatest(p\(a), p\(b)).map { mix }"
    case .switchLatest(let selector, let among, let makesInner):
      let candidates = among.map { "p\($0)" }.joined(separator: ", ")
      return makesInner
        ? "r\(selector).flatMapLatest { [\(candidates)][v % \(among.count)].map { with r\(selector) } }"
        : "combineLatest(r\(selector), r\(selector).flatMapLatest { [\(candidates)][v % "
          + "\(among.count)] }).map { with r\(selector) }"
    case .removeDuplicates(let input): return "p\(input).removeDuplicates()"
    }
  }
}

/// The fuzz's shared graph: relays, and nodes made from recipes over them and over earlier
/// nodes.
///
/// Relays `0..<ownedRelays` have one writer each (thread `index % threads`), which writes
/// increasing values with `accept`; the others are written by every thread with
/// `modify { $0 += 1 }`, so that every relay's values increase in the order they are written.
final class FuzzGraph: Sendable {
  let relays: [BehaviorRelay<Int>]
  let ownedRelays: Int
  let recipes: [FuzzRecipe]
  let nodes: [Property<Snap>]

  init(seed: UInt64, threads: Int) {
    var random = SplitMix64(seed: seed)
    func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    ownedRelays = threads * 2
    let relays = (0..<ownedRelays + 2).map { _ in BehaviorRelay(0) }
    var recipes: [FuzzRecipe] = [.allRelays]
    // Half the graphs make inner properties inside `flatMapLatest`'s transform, which runs
    // in reads too: see `FuzzFinding` and `KnownStops` for what that finds.
    let makesInner = int(0...1) == 0
    for _ in 0..<int(8...14) {
      let count = recipes.count
      func node() -> Int {
        int(0...9) < 6 ? int(max(0, count - 3)...count - 1) : int(0...count - 1)
      }
      func relay() -> Int { int(0...relays.count - 1) }
      func formula(_ depth: Int) -> FuzzFormula {
        switch int(0...99) {
        case 0..<30 where depth < 2:
          return .branch(formula(depth + 1), formula(depth + 1), formula(depth + 1))
        case 30..<45 where depth < 2: return .mix(formula(depth + 1), formula(depth + 1))
        case 45..<50: return .constant(int(0...3))
        case 50..<75: return .node(node())
        default: return .relay(relay())
        }
      }
      switch int(0...99) {
      case 0..<40:
        // Mostly `x % 2 == 0 ? y : z`, over relays and other nodes.
        recipes.append(.computed(.branch(.relay(relay()), formula(1), formula(1))))
      case 40..<50: recipes.append(.computed(formula(0)))
      case 50..<62: recipes.append(.map(node(), offset: int(1...3)))
      case 62..<76: recipes.append(.combine(node(), node()))
      case 76..<88:
        recipes.append(
          .switchLatest(selector: relay(), among: [node(), node()], makesInner: makesInner))
      default: recipes.append(.removeDuplicates(node()))
      }
    }
    var nodes: [Property<Snap>] = []
    for recipe in recipes { nodes.append(Self.make(recipe, relays: relays, nodes: nodes)) }
    self.relays = relays
    self.recipes = recipes
    self.nodes = nodes
  }

  /// The node `recipe` describes, over `relays` and `nodes`.
  static func make(
    _ recipe: FuzzRecipe, relays: [BehaviorRelay<Int>], nodes: [Property<Snap>]
  ) -> Property<Snap> {
    let count = relays.count
    switch recipe {
    case .computed(let formula):
      return computed(formula, relays: relays, nodes: nodes)
    case .allRelays:
      return Property {
        var snap = Snap(relays: count)
        for (index, relay) in relays.enumerated() { snap.absorb(relay: index, relay.value) }
        return snap.with(payload: snap.seen.reduce(0, Snap.mix))
      }
    case .map(let input, let offset):
      return nodes[input].map { $0.with(payload: $0.payload &+ offset) }
    case .combine(let a, let b):
      return Property.combineLatest(nodes[a], nodes[b]).map { first, second in
        var snap = first
        snap.absorb(second)
        return snap.with(payload: Snap.mix(first.payload, second.payload))
      }
    case .switchLatest(let selector, let among, let makesInner):
      let candidates = among.map { nodes[$0] }
      let selectorProperty = relays[selector].asProperty()
      guard makesInner else {
        let followed = selectorProperty.flatMapLatest { candidates[$0 % candidates.count] }
        return Property.combineLatest(selectorProperty, followed).map { value, inner in
          var snap = inner
          snap.absorb(relay: selector, value)
          return snap
        }
      }
      return selectorProperty.flatMapLatest { value in
        candidates[value % candidates.count].map { inner in
          var snap = inner
          snap.absorb(relay: selector, value)
          return snap
        }
      }
    case .removeDuplicates(let input):
      return nodes[input].removeDuplicates()
    }
  }

  /// `Property { formula }`, reading `relays` and `nodes`.
  static func computed(
    _ formula: FuzzFormula, relays: [BehaviorRelay<Int>], nodes: [Property<Snap>]
  ) -> Property<Snap> {
    let count = relays.count
    return Property {
      var snap = Snap(relays: count)
      let payload = formula.evaluate(
        relay: { index in
          let value = relays[index].value
          snap.absorb(relay: index, value)
          return value
        },
        node: { index in
          let value = nodes[index].value
          snap.absorb(value)
          return value.payload
        })
      return snap.with(payload: payload!)
    }
  }

  /// What node `index`'s payload is when computed from the relay values `seen`; `nil` when it
  /// needs a relay `seen` lacks (the value was computed from other branches than those
  /// values select).
  func payload(of index: Int, _ seen: [Int]) -> Int? {
    switch recipes[index] {
    case .computed(let formula): return payload(of: formula, seen)
    case .allRelays:
      return seen.contains(-1) ? nil : seen.reduce(0, Snap.mix)
    case .map(let input, let offset): return payload(of: input, seen).map { $0 &+ offset }
    case .combine(let a, let b):
      guard let first = payload(of: a, seen), let second = payload(of: b, seen) else { return nil }
      return Snap.mix(first, second)
    case .switchLatest(let selector, let among, _):
      guard seen[selector] >= 0 else { return nil }
      return payload(of: among[seen[selector] % among.count], seen)
    case .removeDuplicates(let input): return payload(of: input, seen)
    }
  }

  /// `formula`'s payload from the relay values `seen` (see `payload(of:_:)`).
  func payload(of formula: FuzzFormula, _ seen: [Int]) -> Int? {
    formula.evaluate(
      relay: { seen[$0] >= 0 ? seen[$0] : nil }, node: { payload(of: $0, seen) })
  }

  /// The graph, one node a line.
  var description: String {
    recipes.enumerated().map { "  p\($0) = \($1)" }.joined(separator: "\n")
  }
}
