import InvalidatingCore

/// Declares state that the declaring type writes and everyone else only reads.
///
/// The wrapped property is a read-only ``InvalidatingCore/Property``; its projected value
/// (`$name`) is the ``BehaviorRelay`` that writes it. Keep `$name` private to the type by
/// convention: only code that can name the wrapper's owner writes.
///
/// ```swift
/// final class CounterViewModel {
///   @ReadWrite(0) var count: Property<Int>
///   func increment() { $count.accept(count.value + 1) }
/// }
/// ```
///
/// Releasing the owner releases the relay: properties derived from `count` keep its last value
/// and complete.
@propertyWrapper
public struct ReadWrite<Value> {
  /// The read-only property that the declaring type exposes.
  public let wrappedValue: Property<Value>
  /// The relay that writes the property: `$name.accept(newValue)`.
  public let projectedValue: BehaviorRelay<Value>

  /// Creates the state with `initial` as its current value.
  ///
  /// - Parameter initial: The initial value.
  public init(_ initial: Value) {
    projectedValue = BehaviorRelay(initial)
    wrappedValue = projectedValue.asProperty()
  }
}

extension ReadWrite: Sendable where Value: Sendable {}
