import InvalidatingCore

/// A stream of events with no current value: subscribers receive the values accepted after they
/// subscribed.
///
/// ```swift
/// let taps = PublishRelay<Int>()
/// let token = taps.subscribe { print($0) }   // prints nothing yet
/// taps.accept(5)                           // prints 5 before accept returns
/// ```
///
/// Inside a `batch`, like every source, a publish relay delivers once at the end, with the last
/// value accepted in the batch: events accepted earlier in the same batch are not delivered.
///
/// The relay holds the last accepted value until the next `accept` or until it is released.
///
/// > Important: `accept(_:)` is safe from any thread and follows the engine's contract:
/// > synchronous outside a batch, queued (not nested) when called from a sink.
public final class PublishRelay<Value> {
  // `nil` is the relay's resting state; subscribers only see the values that are accepted.
  @usableFromInline let node: SourceNode<Value?>

  /// Creates a relay with no subscribers.
  public init() {
    node = SourceNode(nil)
  }

  deinit {
    node.complete()
  }

  /// Delivers `value` to every current subscriber.
  ///
  /// - Parameter value: The event.
  /// - Complexity: O(subscribers), with no allocation once warmed up.
  @inlinable
  public func accept(_ value: Value) {
    node.write(value)
  }

  /// Calls `sink` with every value accepted from now on, in order.
  ///
  /// - Parameter sink: Called on the thread that delivers the event (the writer's, unless
  ///   another thread was already delivering this relay's events). Never called concurrently
  ///   with itself.
  /// - Returns: The token that keeps the subscription alive: cancel or release it to stop.
  public func subscribe(_ sink: @escaping @Sendable (Value) -> Void) -> SubscriptionToken {
    node.subscribe(emitsCurrentValue: false) { event in
      if let event { sink(event) }
    }
  }
}

extension PublishRelay: Sendable where Value: Sendable {}
