import InvalidatingCore

extension Property {
  /// Creates a property computed by the engine from `inputs`: the one place operators create
  /// derived nodes.
  ///
  /// `compute` reads each input with `read(mode)` and returns the new value, or `nil` to keep
  /// the previous one and notify nobody. The operator's entry point builds `compute` in its
  /// `@inlinable` body, so the closure is specialized for the caller's types.
  ///
  /// `origin` names the operator and where it was called, for traces (see `NodeOrigin`).
  @inlinable
  static func _derived(
    from inputs: [AnyNode], origin: NodeOrigin?,
    compute: @escaping @Sendable (_ReadMode, Value?) -> Value?
  ) -> Property<Value> {
    Property(node: DerivedNode(inputs: inputs, origin: origin, compute: compute))
  }

  /// `_derived(from:compute:)` with the operator's own delivery step, for an operator that
  /// never holds a change back: `deliver` computes the value for the change being delivered
  /// (reading the inputs with `read(.delivery)`) and returns `DerivedNode.stage(_:on:)` of it.
  /// The engine calls it directly: one closure call fewer per change than through `compute`.
  @inlinable
  static func _derived(
    from inputs: [AnyNode], origin: NodeOrigin?,
    compute: @escaping @Sendable (_ReadMode, Value?) -> Value?,
    deliver: @escaping @Sendable (AnyNode) -> Bool
  ) -> Property<Value> {
    Property(
      node: DerivedNode(inputs: inputs, origin: origin, compute: compute, deliver: deliver))
  }
}
