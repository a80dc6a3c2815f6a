import InvalidatingCore

extension Property where Value: Sendable {
  /// This property's changes, without its current value: a stream to subscribe to or iterate.
  ///
  /// ```swift
  /// let token = count.changes.subscribe { print($0) }   // prints nothing until a change
  /// for await value in count.changes { print(value) }   // changes from now on
  /// ```
  ///
  /// Use it where the current value is not an event: reacting to a user's edit, not to the
  /// state the screen opened with.
  public var changes: Changes<Value> { Changes(property: self) }
}

/// The changes of a ``InvalidatingCore/Property``, without its current value.
///
/// Subscribe with ``subscribe(_:)``, or iterate it as an `AsyncSequence`: each iterator sees the changes made after it was created, in order, and ends when
/// the property completes (its relays are gone).
public struct Changes<Value: Sendable>: AsyncSequence, Sendable {
  /// The property whose changes this is; kept alive by the stream.
  public let property: Property<Value>

  /// Creates the stream of `property`'s changes.
  ///
  /// - Parameter property: The property to follow.
  public init(property: Property<Value>) {
    self.property = property
  }

  /// Calls `sink` with every change of the property from now on, in order; not with the
  /// current value.
  ///
  /// - Parameter sink: Called on the delivering thread, never concurrently with itself.
  /// - Returns: The token that keeps the subscription alive: cancel or release it to stop.
  public func subscribe(_ sink: @escaping @Sendable (Value) -> Void) -> SubscriptionToken {
    property.node.subscribe(emitsCurrentValue: false, sink)
  }
}

extension Changes {
  /// A change of the property.
  public typealias Element = Value

  /// Iterates the changes made after it was created.
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: AsyncStream<Value>.Iterator

    /// The next change, or `nil` once the property has completed (or the task is cancelled).
    @inlinable
    public mutating func next() async -> Value? {
      await base.next()
    }
  }

  /// Starts following the property's changes.
  ///
  /// - Returns: An iterator of the changes from now on. Changes that arrive while the consumer
  ///   is busy are buffered, in order.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: property.node._stream(emitsCurrentValue: false).makeAsyncIterator())
  }
}
