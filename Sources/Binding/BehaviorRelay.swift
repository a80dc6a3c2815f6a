import InvalidatingCore

/// A value that changes over time, written with `accept(_:)` and observed with
/// `subscribe(_:)`: the writable state behind a ``InvalidatingCore/Property``.
///
/// A relay always has a current value. It never fails and never completes while it lives; when
/// the relay is released, the properties and subscriptions made from it keep its last value and
/// complete (an `AsyncSequence` of its values finishes).
///
/// ```swift
/// let count = BehaviorRelay(0)            // or BehaviorRelay(value: 0), RxRelay's spelling
/// let token = count.subscribe { print($0) } // prints 0 at once
/// count.accept(1)                         // prints 1 before accept returns
/// count.value                             // 1
/// ```
///
/// Hand out ``asProperty()`` (or `Property(relay)`) to the code that may only read.
///
/// > Important: The engine's contract applies to every write: delivery is synchronous outside a
/// > `batch` and once per sink inside one; a sink that writes a relay has its write queued and
/// > delivered after the current delivery, never nested; `accept(_:)` is safe from any thread.
public final class BehaviorRelay<Value> {
  @usableFromInline let node: SourceNode<Value>

  /// Creates a relay whose current value is `value`.
  ///
  /// - Parameter value: The initial value.
  @inlinable
  public init(_ value: Value) {
    node = SourceNode(value)
  }

  /// Creates a relay whose current value is `value` (RxRelay's spelling of ``init(_:)``).
  ///
  /// - Parameter value: The initial value.
  public convenience init(value: Value) {
    self.init(value)
  }

  deinit {
    node.complete()
  }

  /// The current value: the newest one accepted, even inside a `batch` or a sink, before it is
  /// delivered.
  ///
  /// - Complexity: O(1) with one uncontended lock.
  @inlinable
  public var value: Value {
    node.latestValue()
  }

  /// Makes `value` the current value and delivers it to every subscriber and derived property.
  ///
  /// Outside a batch, every affected sink has run when `accept` returns. Inside `batch { }` the
  /// value is current at once and delivered when the outermost batch ends, once per sink. Called
  /// from a sink, the write is queued and delivered right after the current delivery.
  ///
  /// Equal values are delivered too (a relay does not require `Equatable`); use
  /// `removeDuplicates()` downstream to skip them.
  ///
  /// - Parameter value: The new value.
  /// - Complexity: O(affected sinks + affected derived properties), with no allocation once
  ///   warmed up.
  @inlinable
  public func accept(_ value: Value) {
    node.write(value)
  }

  /// Calls `sink` at once with the current value, then with every accepted value, in order.
  ///
  /// - Parameter sink: Called on the thread that delivers the change: the writer's, unless
  ///   another thread was already delivering this relay's changes. Never called concurrently
  ///   with itself.
  /// - Returns: The token that keeps the subscription alive: cancel or release it to stop.
  @inlinable
  public func subscribe(_ sink: @escaping @Sendable (Value) -> Void) -> SubscriptionToken {
    node.subscribe(emitsCurrentValue: true, sink)
  }

  /// A read-only view of this relay: it has the relay's value and changes, but no `accept`.
  ///
  /// The property does not keep the relay alive: when the relay is released, the property keeps
  /// the last value and completes.
  ///
  /// - Returns: A property that follows this relay.
  public func asProperty() -> Property<Value> {
    Property(node: node)
  }
}

extension BehaviorRelay: Sendable where Value: Sendable {}

extension Property {
  /// Creates a read-only property that follows `relay` (the same as `relay.asProperty()`).
  ///
  /// `Property(relay)` needs no explicit generic argument: the value type comes from the relay.
  ///
  /// - Parameter relay: The relay to follow. It is not kept alive by the property.
  public convenience init(_ relay: BehaviorRelay<Value>) {
    self.init(node: relay.node)
  }
}
