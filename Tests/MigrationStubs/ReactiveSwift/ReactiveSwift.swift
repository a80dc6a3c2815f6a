// A stand-in of ReactiveSwift for scripts/check-migration-names (see
// Tests/MigrationStubs/RxSwift/RxSwift.swift): `Property`, `MutableProperty` and `Signal`,
// with ReactiveSwift's spellings, which name-clash with Invalidating's.

/// A stand-in of ReactiveSwift's `PropertyProtocol`.
public protocol PropertyProtocol: AnyObject {
  associatedtype Value
  var value: Value { get }
}

/// A stand-in of ReactiveSwift's `Property`.
public final class Property<Value>: PropertyProtocol {
  /// The current value.
  public let value: Value
  /// A stand-in of `init(value:)`: a constant property.
  public init(value: Value) { self.value = value }
  /// A stand-in of `init(_:)`, a read-only view of another property.
  public init<Source: PropertyProtocol>(_ source: Source) where Source.Value == Value {
    value = source.value
  }
  /// A stand-in of `map(_:)`.
  public func map<Result>(_ transform: @escaping (Value) -> Result) -> Property<Result> {
    Property<Result>(value: transform(value))
  }
}

/// A stand-in of ReactiveSwift's `MutableProperty`.
public final class MutableProperty<Value>: PropertyProtocol {
  /// The current value.
  public var value: Value
  /// A stand-in of `init(_:)`.
  public init(_ initial: Value) { value = initial }
}

/// A stand-in of ReactiveSwift's `Signal`: a value type and an error type.
public final class Signal<Value, Error: Swift.Error> {
  /// A stand-in of `Signal.pipe()`.
  public static func pipe() -> (output: Signal, input: Observer) { (Signal(), Observer()) }

  /// A stand-in of `Signal.Observer`.
  public final class Observer {
    /// A stand-in of `send(value:)`.
    public func send(value: Value) {}
  }
}
