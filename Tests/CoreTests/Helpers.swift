@testable import InvalidatingCore

/// A derived node computing `transform` of `input`: Core's own stand-in for `map`.
func derive<Input, Output>(
  _ input: ValueNode<Input>, _ transform: @escaping @Sendable (Input) -> Output
) -> DerivedNode<Output> {
  DerivedNode(inputs: [input]) { mode, _ in transform(input.read(mode)) }
}

/// A derived node pairing two inputs: Core's own stand-in for `combineLatest`.
func pair<A, B>(_ a: ValueNode<A>, _ b: ValueNode<B>) -> DerivedNode<(A, B)> {
  DerivedNode(inputs: [a, b]) { mode, _ in (a.read(mode), b.read(mode)) }
}

/// A derived node that keeps its value when `isDuplicate` says the new one is the same.
func deduplicate<Input: Equatable & Sendable>(_ input: ValueNode<Input>) -> DerivedNode<Input> {
  DerivedNode(inputs: [input]) { mode, previous in
    let value = input.read(mode)
    return value == previous ? nil : value
  }
}

extension ValueNode {
  /// Subscribes with the current value first, as `Property.subscribe` does.
  func subscribe(_ sink: @escaping @Sendable (Value) -> Void) -> SubscriptionToken {
    subscribe(emitsCurrentValue: true, sink)
  }
}

/// A class to invalidate, recording each invalidation it gets.
final class Canvas: Invalidatable, @unchecked Sendable {
  // Safe: only touched from the test's own thread.
  var log: [String] = []
}

/// An invalidator compared by type only.
struct Layout {}
/// An invalidator compared by value.
struct Region: Equatable { let name: String }
