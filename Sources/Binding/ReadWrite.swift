import InvalidatingCore

/// Declares a read-only ``InvalidatingCore/Property`` and the relay that writes it, in one line.
///
/// The wrapped property is a read-only ``InvalidatingCore/Property``; its projected value
/// (`$name`) is the ``BehaviorRelay`` that writes it.
///
/// ```swift
/// final class CounterViewModel {
///   @ReadWrite(0) var count: Property<Int>
///   func increment() { $count.modify { $0 += 1 } }
/// }
/// ```
///
/// > Important: `@ReadWrite` does not make the state read-only to callers. Swift gives `$name`
/// > the access level of `name` (SE-0258), so any code that can read `count` (another module
/// > too, if `count` is public) can call `$count.accept(_:)`. A wrapper's storage is also a
/// > `var`, so a `Sendable` class cannot declare one, and `init` cannot derive a `let` from
/// > `count` before every stored property is set. Where only the type may write, keep the relay
/// > private and hand out `asProperty()`:
/// >
/// > ```swift
/// > final class CounterViewModel: Sendable {
/// >   let count: Property<Int>
/// >   let doubled: Property<Int>
/// >   private let countRelay = BehaviorRelay(0)
/// >   init() {
/// >     count = countRelay.asProperty()
/// >     doubled = countRelay.map { $0 * 2 }
/// >   }
/// >   func increment() { countRelay.modify { $0 += 1 } }
/// > }
/// > ```
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
  /// Traces call the state by where it is declared, `@ReadWrite(CounterViewModel.swift:2)`,
  /// unless it is named (`$count.named("count")`).
  ///
  /// - Parameters:
  ///   - initial: The initial value.
  ///   - file: The file that declares the state, for traces; leave the default.
  ///   - line: The line that declares the state, for traces; leave the default.
  public init(_ initial: Value, file: StaticString = #fileID, line: UInt = #line) {
    projectedValue = BehaviorRelay(initial, origin: .made("@ReadWrite", file: file, line: line))
    wrappedValue = projectedValue.asProperty()
  }
}

extension ReadWrite: Sendable where Value: Sendable {}
