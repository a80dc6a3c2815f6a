import InvalidatingCore

extension Property where Value: Sendable {
  /// The property's current value, then every change, as an `AsyncSequence` that finishes when
  /// the property completes (the relays behind it are released).
  ///
  /// ```swift
  /// for await count in viewModel.count.values {
  ///   print(count)   // the current value first, then each change
  /// }
  /// ```
  ///
  /// Each iterator starts from the value current when it is created. Values that arrive while
  /// the loop body is busy are buffered and yielded in order, so the loop sees every change.
  /// Leaving the loop, or cancelling its task, ends the subscription.
  public var values: PropertyValues<Value> { PropertyValues(property: self) }
}

/// A ``InvalidatingCore/Property``'s current value followed by its changes, as an
/// `AsyncSequence`.
///
/// The sequence finishes when the property completes, which happens when every relay it is
/// derived from has been released.
public struct PropertyValues<Value: Sendable>: AsyncSequence, Sendable {
  /// A value of the property.
  public typealias Element = Value

  /// The property whose values this is; kept alive by the sequence.
  public let property: Property<Value>

  /// Creates the sequence of `property`'s values.
  ///
  /// - Parameter property: The property to follow.
  public init(property: Property<Value>) {
    self.property = property
  }

  /// Iterates the value current when it was created, then every change.
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: AsyncStream<Value>.Iterator

    /// The next value, or `nil` once the property has completed (or the task is cancelled).
    @inlinable
    public mutating func next() async -> Value? {
      await base.next()
    }
  }

  /// Starts following the property.
  ///
  /// - Returns: An iterator whose first element is the current value.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: property.node._stream(emitsCurrentValue: true).makeAsyncIterator())
  }
}

extension ValueNode where Value: Sendable {
  /// A stream fed by a new subscription to this node: finished when the node completes, and
  /// the subscription cancelled when the stream's consumer goes away.
  func _stream(emitsCurrentValue: Bool) -> AsyncStream<Value> {
    AsyncStream(Value.self, bufferingPolicy: .unbounded) { continuation in
      let token = subscribe(
        emitsCurrentValue: emitsCurrentValue,
        onCompletion: { continuation.finish() },
        { continuation.yield($0) })
      continuation.onTermination = { _ in token.cancel() }
    }
  }
}
