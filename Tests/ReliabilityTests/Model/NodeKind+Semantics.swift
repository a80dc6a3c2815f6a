/// What each node kind computes, shared by the engine nodes and the reference model.
///
/// Sharing the arithmetic is deliberate: the model exists to check *when* and *from which
/// input values* the engine computes and delivers, not that `v + 1` adds one.
extension NodeKind {
  /// How many inputs the kind takes.
  var arity: ClosedRange<Int> {
    switch self {
    case .map, .removeDuplicates, .filter: return 1...1
    case .combine: return 2...4
    case .switchLatest: return 3...4
    case .computed(let formula):
      let count = formula.mentioned.count
      return count...count
    }
  }

  /// For a computed property, its formula.
  var formula: Formula? {
    guard case .computed(let formula) = self else { return nil }
    return formula
  }

  /// Whether the engine node reads only some of its declared inputs (its edges change).
  var isDynamic: Bool { self == .switchLatest }

  /// For `switchLatest`: which of `inputs[1...]` the selector's value picks (an index into the
  /// whole input list).
  static func selected(by selector: Int, amongInputs count: Int) -> Int {
    1 + floorMod(selector, count - 1)
  }

  /// The new value from the inputs' values, or `nil` to keep `previous` and notify nobody.
  ///
  /// With `previous == nil` (the node being created) it always returns a value, as the
  /// engine requires. `switchLatest` is given every input's value and returns the selected one;
  /// so is a computed property, which evaluates its formula (reading only the branches taken)
  /// and holds back a result equal to `previous`.
  func evaluate(_ inputs: [Int], previous: Int?) -> Int? {
    switch self {
    case .map(let function):
      return function(inputs[0])
    case .combine:
      return inputs.reduce(0x2545) { ($0 &* 0x3F1) &+ $1 &+ 7 }
    case .removeDuplicates:
      return inputs[0] == previous ? nil : inputs[0]
    case .filter(let modulus, let residue):
      guard previous != nil else { return inputs[0] }
      return floorMod(inputs[0], modulus) == residue ? nil : inputs[0]
    case .switchLatest:
      return inputs[Self.selected(by: inputs[0], amongInputs: inputs.count)]
    case .computed(let formula):
      let mentioned = formula.mentioned
      let value = formula.evaluate { inputs[mentioned.firstIndex(of: $0)!] }
      return value == previous ? nil : value
    }
  }
}
