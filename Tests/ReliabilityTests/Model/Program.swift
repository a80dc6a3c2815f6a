/// The vocabulary of random programs: node kinds, sink behaviours and steps.
///
/// A program is plain data, so it can be printed, shrunk and replayed against the engine and the
/// reference model alike. Every node carries an `Int`; identifiers are labels chosen by the
/// generator, so dropping a step while shrinking never renames the others (a step whose labels
/// no longer exist is skipped by both sides).
///
/// **Adding a node kind** (a relay operator, a view property): add a case to ``NodeKind``, give
/// it an arity and an `evaluate` in `NodeKind+Semantics.swift`, teach the generator to pick it,
/// and build it in the system under test (``CoreSystem/makeNode(_:_:_:)`` for the engine).

/// Labels of nodes and sinks in a program.
typealias NodeID = Int
typealias SinkID = Int

/// A pure function of one `Int`, the body of a `map` node.
enum MapFunction: Hashable, Sendable {
  case add(Int)
  case multiply(Int)
  /// Integer halving: many inputs map to one output, so downstream sees repeated values.
  case half
  case modulo(Int)
  case negate

  func callAsFunction(_ value: Int) -> Int {
    switch self {
    case .add(let amount): return value &+ amount
    case .multiply(let factor): return value &* factor
    case .half: return value / 2
    case .modulo(let divisor): return floorMod(value, divisor)
    case .negate: return 0 &- value
    }
  }
}

/// What a derived node computes.
enum NodeKind: Hashable, Sendable {
  /// `inputs[0]` transformed.
  case map(MapFunction)
  /// A mix of 2–4 inputs, order-sensitive: the stand-in for `combineLatest`. The mix is
  /// injective enough that a glitch (an inconsistent combination) shows up as a wrong value.
  case combine
  /// `inputs[0]`, holding back a value equal to the previous one.
  case removeDuplicates
  /// `inputs[0]`, holding back values with `value mod modulus == residue`.
  case filter(modulus: Int, residue: Int)
  /// `inputs[0]` selects which of `inputs[1...]` to follow: the stand-in for `flatMapLatest`,
  /// built on `Engine.switchInputs`.
  case switchLatest
  /// A computed property, `Property { ... }`, whose body is `formula`: it reads only what the
  /// branches it takes read (its dependencies change with the values), skips a result equal
  /// to the one it holds (`Int` is `Equatable`), and is suspended while nothing observes it.
  /// Its `inputs` are every node the formula mentions (`Formula.mentioned`), in that order.
  case computed(Formula)
}

/// The body of a computed property: reads of other nodes' `value`, combined.
indirect enum Formula: Hashable, Sendable {
  case read(NodeID)
  case constant(Int)
  /// `condition % 2 == 0 ? even : odd`: only the branch taken is read (its reads are the
  /// property's dependencies until a run takes the other one).
  case branch(Formula, even: Formula, odd: Formula)
  /// The two values mixed as `NodeKind.combine` mixes its inputs.
  case mix(Formula, Formula)
  case apply(MapFunction, Formula)

  /// The formula's value, reading each node through `value`, in the order a run reads them
  /// (the branch not taken is not read).
  func evaluate(_ value: (NodeID) -> Int) -> Int {
    switch self {
    case .read(let id): return value(id)
    case .constant(let constant): return constant
    case .branch(let condition, let even, let odd):
      return floorMod(condition.evaluate(value), 2) == 0
        ? even.evaluate(value) : odd.evaluate(value)
    case .mix(let first, let second):
      let a = first.evaluate(value)
      return NodeKind.combine.evaluate([a, second.evaluate(value)], previous: nil)!
    case .apply(let function, let operand): return function(operand.evaluate(value))
    }
  }

  /// What a run reads when the nodes have the values `value` gives, in order, once each.
  func reads(_ value: (NodeID) -> Int) -> [NodeID] {
    var read: [NodeID] = []
    _ = evaluate { id in
      if !read.contains(id) { read.append(id) }
      return value(id)
    }
    return read
  }

  /// Every node some run may read, once each, in order of first mention.
  var mentioned: [NodeID] {
    var found: [NodeID] = []
    func walk(_ formula: Formula) {
      switch formula {
      case .read(let id): if !found.contains(id) { found.append(id) }
      case .constant: break
      case .branch(let condition, let even, let odd):
        walk(condition)
        walk(even)
        walk(odd)
      case .mix(let first, let second):
        walk(first)
        walk(second)
      case .apply(_, let operand): walk(operand)
      }
    }
    walk(self)
    return found
  }

  /// Formulas one simplification smaller (a branch, a mix or an application replaced by one
  /// of its parts), for the shrinker.
  var simpler: [Formula] {
    switch self {
    case .read, .constant: return []
    case .branch(let condition, let even, let odd):
      return [even, odd, condition]
        + condition.simpler.map { .branch($0, even: even, odd: odd) }
        + even.simpler.map { .branch(condition, even: $0, odd: odd) }
        + odd.simpler.map { .branch(condition, even: even, odd: $0) }
    case .mix(let first, let second):
      return [first, second] + first.simpler.map { .mix($0, second) }
        + second.simpler.map { .mix(first, $0) }
    case .apply(let function, let operand):
      return [operand] + operand.simpler.map { .apply(function, $0) }
    }
  }
}

/// When a sink acts: on values with `value mod modulus == residue`.
struct Condition: Hashable, Sendable {
  let modulus: Int
  let residue: Int

  func matches(_ value: Int) -> Bool { floorMod(value, modulus) == residue }
}

/// A write a sink makes from inside a delivery.
struct WriteAction: Hashable, Sendable {
  let source: NodeID
  let value: Int
}

/// What a sink does besides recording what it sees.
enum SinkBehavior: Hashable, Sendable {
  case record
  /// Re-entrant writes: the first `times` values matching `when` each make `writes`, in order.
  case write(when: Condition, times: Int, [WriteAction])
  /// Cancels `target` (possibly itself) the first time a value matches `when`.
  case cancel(SinkID, when: Condition)
  /// Reads `target`'s `value` on every call (a sink reading other state while a delivery is
  /// under way, or a computed property that is suspended): the checker compares each read
  /// with what the newest writes then give.
  case read(NodeID)
  /// A binding (`bind(to:)`): writes every value it sees into `target`, a source or a view's
  /// property (which a value equal to the current one leaves alone). Public layers only.
  case forward(to: NodeID)
}

/// One step of a program.
indirect enum Step: Hashable, Sendable {
  case source(NodeID, initial: Int)
  case derive(NodeID, NodeKind, inputs: [NodeID])
  case write(NodeID, Int)
  /// Runs the steps inside one `batch { }`; nested batches nest.
  case batch([Step])
  case subscribe(SinkID, to: NodeID, emitsCurrentValue: Bool, SinkBehavior)
  case cancel(SinkID)
  /// The test lets go of its handle on a derived node (or of a view).
  case release(NodeID)
  /// A view whose `@ViewInvalidating(.layout, .display)` property starts at `initial`; the
  /// property's projected value (`$x`) is node `id`, and writing `id` sets the property.
  /// Public layers only.
  case view(NodeID, initial: Int)
}

/// `value mod divisor`, always in `0..<divisor`.
func floorMod(_ value: Int, _ divisor: Int) -> Int {
  let remainder = value % divisor
  return remainder < 0 ? remainder + divisor : remainder
}

// MARK: - Printing

extension Condition: CustomStringConvertible {
  var description: String { "v % \(modulus) == \(residue)" }
}

extension MapFunction: CustomStringConvertible {
  var description: String {
    switch self {
    case .add(let amount): return "v + \(amount)"
    case .multiply(let factor): return "v * \(factor)"
    case .half: return "v / 2"
    case .modulo(let divisor): return "v mod \(divisor)"
    case .negate: return "-v"
    }
  }
}

extension Formula: CustomStringConvertible {
  var description: String {
    switch self {
    case .read(let id): return "n\(id).value"
    case .constant(let constant): return "\(constant)"
    case .branch(let condition, let even, let odd):
      return "(\(condition) % 2 == 0 ? \(even) : \(odd))"
    case .mix(let first, let second): return "mix(\(first), \(second))"
    case .apply(let function, let operand):
      return "{ v in \(function) }(\(operand))"
    }
  }
}

extension Step {
  /// The step as pseudo-Swift, indented by `depth` levels.
  func lines(depth: Int = 0) -> [String] {
    let pad = String(repeating: "  ", count: depth)
    func name(_ ids: [NodeID]) -> String { ids.map { "n\($0)" }.joined(separator: ", ") }
    switch self {
    case .source(let id, let initial):
      return ["\(pad)n\(id) = source(\(initial))"]
    case .derive(let id, let kind, let inputs):
      let body: String
      switch kind {
      case .map(let function): body = "map(\(name(inputs))) { \(function) }"
      case .combine: body = "combine(\(name(inputs)))"
      case .removeDuplicates: body = "removeDuplicates(\(name(inputs)))"
      case .filter(let modulus, let residue):
        body = "filter(\(name(inputs))) { v % \(modulus) != \(residue) }"
      case .switchLatest:
        body =
          "switchLatest(selector: \(name(Array(inputs.prefix(1)))), "
          + "among: [\(name(Array(inputs.dropFirst())))])"
      case .computed(let formula):
        body = "Property { \(formula) }"
      }
      return ["\(pad)n\(id) = \(body)"]
    case .write(let id, let value):
      return ["\(pad)n\(id).write(\(value))"]
    case .batch(let steps):
      return ["\(pad)batch {"] + steps.flatMap { $0.lines(depth: depth + 1) } + ["\(pad)}"]
    case .subscribe(let sink, let node, let emits, let behavior):
      let action: String
      switch behavior {
      case .record: action = "record"
      case .write(let condition, let times, let writes):
        let list = writes.map { "n\($0.source).write(\($0.value))" }.joined(separator: "; ")
        action = "record; if \(condition) (first \(times) times) { \(list) }"
      case .cancel(let target, let condition):
        action = "record; if \(condition) (once) { s\(target).cancel() }"
      case .read(let target):
        action = "record; record(n\(target).value)"
      case .forward(let target):
        return ["\(pad)s\(sink) = n\(node).bind(to: n\(target))"]
      }
      return ["\(pad)s\(sink) = n\(node).subscribe(emitsCurrentValue: \(emits)) { \(action) }"]
    case .cancel(let sink):
      return ["\(pad)s\(sink).cancel()"]
    case .release(let id):
      return ["\(pad)release(n\(id))"]
    case .view(let id, let initial):
      return ["\(pad)n\(id) = view(x: \(initial)).$x"]
    }
  }
}

/// A whole program as pseudo-Swift, one step per line.
func describe(_ program: [Step]) -> String {
  program.flatMap { $0.lines(depth: 1) }.joined(separator: "\n")
}
