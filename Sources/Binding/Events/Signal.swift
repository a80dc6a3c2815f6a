import InvalidatingCore

/// A stream of events: things that happen (a tap, a submit, a message), as opposed to state.
///
/// A `Signal` has no current value. A subscriber receives the events that happen after it
/// subscribed, each one, in order: events are never coalesced, not even inside a `batch`
/// (where they are delivered, in order, when the batch ends, after its state), and none is kept
/// once delivered. A ``InvalidatingBinding/PublishRelay`` is a signal you can also write.
///
/// ```swift
/// let submit = PublishRelay<Void>()
/// let attempts: Property<Int> = submit.scan(into: 0) { count, _ in count += 1 }
/// let credentials = submit.withLatestFrom(form)          // a Signal of the form's value
/// let token = credentials.subscribe { service.logIn($0) }
/// ```
///
/// Operators (`map`, `filter`, `compactMap`, `merge`, `withLatestFrom`, `scan`, `startWith`,
/// `debounce`, `throttle`) make new signals on the same engine: a signal derived from state
/// and events is glitch-free with the rest of the graph, and its sinks run in the order of the
/// contract. `Property.changes` is the signal of a property's changes, `valueAndChanges` its
/// value then its changes. Async work per event (`flatMapLatest`, `flatMap`, `concatMap`,
/// `flatMapFirst`) delivers its results as events too; `bind(to:)` feeds a relay, and
/// `Property(initial:then:)` holds the latest event as state.
///
/// > Important: State coalesces, events do not (rule 10 of the contract). Use a `Property` for
/// > what a screen shows, and a `Signal` for what the user does.
public class Signal<Element> {
  /// The engine node carrying the events: `nil` at rest, the event while it is delivered.
  @usableFromInline package let node: ValueNode<Element?>
  /// Events every new subscriber receives first (see ``startWith(_:)``).
  @usableFromInline let prefix: [Element]
  /// For a property's ``InvalidatingCore/Property/changes``: the property's node, which
  /// subscribers subscribe to directly, so that they run in subscription order with the
  /// property's other sinks (rule 6). Operators use `node`, derived from it.
  @usableFromInline let changesOf: ValueNode<Element>?
  /// For a signal that starts with a property's value (``InvalidatingCore/Property/valueAndChanges``
  /// and the operators that carry it): how a subscriber subscribes from that value. Such a
  /// subscriber is a subscriber of the property, as one of `changesOf`'s is.
  @usableFromInline let start: _ValueStart<Element>?

  /// Wraps `node`, keeping it attached to the graph for as long as this signal lives.
  @usableFromInline
  package init(
    node: ValueNode<Element?>, prefix: [Element] = [], changesOf: ValueNode<Element>? = nil,
    start: _ValueStart<Element>? = nil
  ) {
    self.node = node
    self.prefix = prefix
    self.changesOf = changesOf
    self.start = start
    node.retainHandle()
  }

  deinit {
    node.releaseHandle()
  }

  /// Calls `sink` with every event from now on, in order.
  ///
  /// - Parameter sink: Called on the thread that delivers the event (the writer's thread,
  ///   unless another thread was already delivering this signal's events). Never called
  ///   concurrently with itself.
  /// - Returns: The token that keeps the subscription alive: cancel or release it to stop.
  /// - Complexity: O(1), plus one call per event of ``startWith(_:)``.
  @inlinable
  public final func subscribe(_ sink: @escaping @Sendable (Element) -> Void) -> SubscriptionToken {
    subscribe(sink, completion: nil)
  }

  /// Calls `sink` with every event from now on, in order, and `onCompleted` once when the
  /// signal ends: when every relay it comes from has been released.
  ///
  /// ```swift
  /// let token = messages.subscribe { message in
  ///   print(message)
  /// } onCompleted: {
  ///   print("the connection is gone")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - sink: Called with each event, as in ``subscribe(_:)``.
  ///   - onCompleted: Called once when the signal ends, after its last event, or at once if it
  ///     already has; never after the token is cancelled.
  /// - Returns: The token that keeps the subscription alive.
  @inlinable
  public final func subscribe(
    _ sink: @escaping @Sendable (Element) -> Void,
    onCompleted: @escaping @Sendable () -> Void
  ) -> SubscriptionToken {
    subscribe(sink, completion: onCompleted)
  }

  /// Calls `sink` with every event from now on, in order, until `bag` ends its subscriptions
  /// (it is released, or its `cancelAll()` is called).
  ///
  /// ```swift
  /// let subscriptions = SubscriptionBag()
  /// taps.subscribe(in: subscriptions) { print("tapped") }
  /// ```
  ///
  /// The bag keeps the subscription for a pointer's worth of memory, with no token object.
  ///
  /// - Parameters:
  ///   - bag: The bag that ends the subscription.
  ///   - sink: Called with each event, as in ``subscribe(_:)``.
  /// - Complexity: O(1), plus one call per event of ``startWith(_:)``.
  @inlinable
  public final func subscribe(
    in bag: SubscriptionBag, _ sink: @escaping @Sendable (Element) -> Void
  ) {
    // The prefix is given once the subscription is in the bag: a `cancelAll()` from the sink
    // then ends it, as it would end a property's subscription from its first value.
    let prefix = prefix
    let givePrefix = { (hasEnded: () -> Bool) in
      for event in prefix {
        if hasEnded() { return }
        sink(event)
      }
    }
    if let start {
      start.subscribeInBag(bag, givePrefix, sink)
    } else if let changesOf {
      changesOf.subscribe(
        in: bag, emitsCurrentValue: false, beforeRegistering: givePrefix, sink)
    } else {
      let eventSink: @Sendable (Element?) -> Void = { event in
        if let event { sink(event) }
      }
      node.subscribe(
        in: bag, emitsCurrentValue: false, beforeRegistering: givePrefix, eventSink)
    }
  }

  @inlinable
  final func subscribe(
    _ sink: @escaping @Sendable (Element) -> Void, completion: (@Sendable () -> Void)?
  ) -> SubscriptionToken {
    for event in prefix { sink(event) }
    if let start { return start.subscribe(sink, completion) }
    if let changesOf {
      return changesOf.subscribe(emitsCurrentValue: false, onCompletion: completion, sink)
    }
    return node.subscribe(emitsCurrentValue: false, onCompletion: completion) { event in
      if let event { sink(event) }
    }
  }
}

// Safe: every stored property is a `let` of a thread-safe type (the engine's node) or of
// `Sendable` values; the only subclass, `PublishRelay`, is final, declared in this module, and
// adds no stored state. (A non-final class cannot conform to `Sendable` without `@unchecked`.)
extension Signal: @unchecked Sendable where Element: Sendable {}

extension Signal where Element: Sendable {
  /// The signal's events as an `AsyncSequence`: each iterator receives the events from its
  /// creation on, in order, buffering those that arrive while the loop body runs, and ends when
  /// the signal does.
  ///
  /// ```swift
  /// for await _ in submit.values { await service.send() }
  /// ```
  public var values: SignalValues<Element> { SignalValues(signal: self) }
}

/// The events of a ``Signal`` as an `AsyncSequence` (see ``Signal/values``).
public struct SignalValues<Element: Sendable>: AsyncSequence, Sendable {
  /// The signal followed.
  public let signal: Signal<Element>

  /// Creates the sequence of `signal`'s events.
  ///
  /// - Parameter signal: The signal to follow.
  public init(signal: Signal<Element>) {
    self.signal = signal
  }

  /// Iterates the events from its creation on.
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: AsyncStream<Element>.Iterator

    /// The next event, or `nil` once the signal has ended (or the task is cancelled).
    @inlinable
    public mutating func next() async -> Element? {
      await base.next()
    }
  }

  /// Starts following the signal.
  ///
  /// - Returns: An iterator of the events from now on, buffered in order.
  public func makeAsyncIterator() -> AsyncIterator {
    let signal = signal
    let stream = AsyncStream(Element.self, bufferingPolicy: .unbounded) { continuation in
      let token = signal.subscribe {
        continuation.yield($0)
      } onCompleted: {
        continuation.finish()
      }
      continuation.onTermination = { _ in token.cancel() }
    }
    return AsyncIterator(base: stream.makeAsyncIterator())
  }
}

extension Signal {
  /// A signal computed from the events of `inputs` (and the state of any other nodes listed):
  /// the one place event operators create derived nodes.
  ///
  /// `event` is called once per delivery in which one of `inputs` changed, reading the inputs
  /// with `read(.delivery)` (an event input reads `nil` unless it fired in this delivery);
  /// it returns the event to deliver, or `nil` for none.
  ///
  /// `origin` names the operator and where it was called, for traces (see `NodeOrigin`).
  @inlinable
  static func _derived(
    from inputs: [AnyNode], origin: NodeOrigin, prefix: [Element] = [],
    start: _ValueStart<Element>? = nil, event: @escaping @Sendable () -> Element?
  ) -> Signal<Element> {
    // An event node reads `nil` outside a delivery (at creation too); in one, the event or
    // nothing (`nil`: no event to deliver).
    let node = DerivedNode<Element?>(eventInputs: inputs, origin: origin) { mode, _ in
      guard mode == .delivery else { return .some(nil) }
      return event().map { .some($0) }
    }
    return Signal(node: node, prefix: prefix, start: start)
  }
}
