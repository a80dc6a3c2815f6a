import InvalidatingCore

extension Property {
  /// This property's value, then its changes: a ``InvalidatingBinding/Signal`` whose every
  /// subscriber receives the property's value when it subscribes, then each change from then
  /// on (what RxCocoa's `rx.text` or a `BehaviorRelay`'s `asObservable()` gives).
  ///
  /// ```swift
  /// let token = query.valueAndChanges.subscribe { print($0) }   // prints the query at once
  /// let searches = query.valueAndChanges.debounce(for: .milliseconds(300), clock: clock)
  /// ```
  ///
  /// A subscriber of it is a subscriber of the property: it gets the value and the changes as
  /// a property's subscriber does, with no change lost or repeated between them. `map`,
  /// `filter` and `compactMap` carry the first value along (each new subscriber gets the value
  /// of its moment, transformed); the operators that follow their input from the moment they
  /// are made (`debounce`, `throttle`, `scan`, the async operators, `Property(initial:then:)`)
  /// take it then, as their first event; `merge` and `withLatestFrom` take it then, as a
  /// ``InvalidatingBinding/Signal/startWith(_:)`` event.
  ///
  /// - Complexity: O(1) per change.
  public var valueAndChanges: Signal<Value> {
    let changes = changes
    return Signal(
      node: changes.node, changesOf: changes.changesOf, start: _ValueStart(following: node))
  }
}

/// How a subscriber of a signal that starts with a property's value subscribes: to the
/// property, from its value, through the operators applied since (`map`, `filter` and
/// `compactMap` compose their transforms here).
@usableFromInline
package struct _ValueStart<Element>: Sendable {
  /// Subscribes `sink` from the value now, with `onCompletion` (as `Signal.subscribe` does).
  @usableFromInline let subscribe:
    @Sendable (
      _ sink: @escaping @Sendable (Element) -> Void, _ onCompletion: (@Sendable () -> Void)?
    ) -> SubscriptionToken
  /// Subscribes `sink` in a bag, running `beforeRegistering` once the bag holds it (it is
  /// given whether the bag has ended the subscription since, as `ValueNode.subscribe` gives).
  @usableFromInline let subscribeInBag:
    @Sendable (
      _ bag: SubscriptionBag, _ beforeRegistering: (_ hasEnded: () -> Bool) -> Void,
      _ sink: @escaping @Sendable (Element) -> Void
    ) -> Void
  /// The first event a subscriber would get now, if any (a filter may drop it).
  @usableFromInline let current: @Sendable () -> Element?

  @usableFromInline
  init(
    subscribe:
      @escaping @Sendable (
        @escaping @Sendable (Element) -> Void, (@Sendable () -> Void)?
      ) -> SubscriptionToken,
    subscribeInBag:
      @escaping @Sendable (
        SubscriptionBag, (() -> Bool) -> Void, @escaping @Sendable (Element) -> Void
      ) -> Void,
    current: @escaping @Sendable () -> Element?
  ) {
    self.subscribe = subscribe
    self.subscribeInBag = subscribeInBag
    self.current = current
  }

  /// Starts from `node`'s value.
  @usableFromInline
  init(following node: ValueNode<Element>) {
    self.init(
      subscribe: { sink, onCompletion in
        node.subscribe(emitsCurrentValue: true, onCompletion: onCompletion, sink)
      },
      subscribeInBag: { bag, beforeRegistering, sink in
        node.subscribe(
          in: bag, emitsCurrentValue: true, beforeRegistering: beforeRegistering, sink)
      },
      current: { node.currentValue() })
  }

  /// This start, with `transform` applied to every event (`nil`: the event is dropped).
  @inlinable
  func compactMap<Transformed>(
    _ transform: @escaping @Sendable (Element) -> Transformed?
  ) -> _ValueStart<Transformed> {
    let base = self
    return _ValueStart<Transformed>(
      subscribe: { sink, onCompletion in
        base.subscribe({ if let event = transform($0) { sink(event) } }, onCompletion)
      },
      subscribeInBag: { bag, beforeRegistering, sink in
        base.subscribeInBag(bag, beforeRegistering) {
          if let event = transform($0) { sink(event) }
        }
      },
      current: { base.current().flatMap(transform) })
  }
}

extension Signal {
  /// The events a subscriber made now would get first: the ``startWith(_:)`` events, then
  /// the property's value for a signal that starts with one. For the operators that take
  /// them at their creation.
  @usableFromInline
  var startEvents: [Element] {
    guard let event = start?.current() else { return prefix }
    return prefix + [event]
  }
}
