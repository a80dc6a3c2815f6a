/// A read-only value that changes over time and tells its subscribers when it does.
///
/// A `Property` is how a view model shows state it alone may change: it exposes `value` and
/// `subscribe(_:)`, never a way to write. The writer keeps the relay it was made from (a
/// `BehaviorRelay`, or the projected value of `@ReadWrite`), or the property is derived from
/// others with operators such as `map` and `combineLatest`.
///
/// ```swift
/// let count = BehaviorRelay(0)
/// let readOnly: Property<Int> = count.asProperty()
/// let token = readOnly.subscribe { print($0) }   // prints 0, then every change
/// count.accept(1)                                // prints 1 before accept returns
/// ```
///
/// A `BehaviorRelay` is a property that can also be written: every operator of `Property`
/// (`map`, `combineLatest`, `values`, `bind(to:)`, ...) takes a relay as it is. To hand out
/// state that others must not write, hand out `relay.asProperty()`, a separate read-only
/// property that cannot be cast back to the relay.
///
/// `Property` is a class so that the relay can be one; every member is `final` and its storage
/// is not public, so a subclass declared outside this package can neither write nor change
/// what a property reads. Do not subclass it.
///
/// > Important: Every rule of the engine's contract applies: delivery is synchronous outside a
/// > `batch`, once per batch inside one, glitch-free through derived properties, queued (not
/// > nested) when a sink writes, and safe from any thread.
///
/// A property keeps its sources' storage alive, but not the objects that own them: when the
/// relays behind a property are released, the property keeps its last value and completes.
open class Property<Value> {
  @usableFromInline package final let node: ValueNode<Value>
  /// What shows this property's reads to Observation: the address of a retained
  /// `PropertyObservation`, made when an Observation tracking first reads the property, or 0.
  /// Written once, under the node's root lock, with release; read with acquire (see
  /// `ObservationVisibility`).
  @exclusivity(unchecked) @usableFromInline final var observationWord: UInt = 0

  /// Wraps `node`, keeping it attached to the graph for as long as this property lives,
  /// unless it is attached only while observed (a computed property's node). (A source is never
  /// detached: `retainHandle()` counts nothing for one.)
  @usableFromInline
  package init(node: ValueNode<Value>) {
    self.node = node
    if !node.suspendsWhenUnobserved { node.retainHandle() }
  }

  /// Creates a property that always has `value` and never changes.
  ///
  /// Subscribers receive `value` once and the subscription ends at once.
  @_disfavoredOverload
  public convenience init(value: Value) {
    let source = SourceNode(value)
    source.isCompleted = true
    self.init(node: source)
  }

  deinit {
    // Borrowed: a call on `node` here retained and released it, about 40 instructions; and
    // none for a relay's source, which holds no handle.
    if node.isKeptByHandle {
      Unmanaged.passUnretained(node)._withUnsafeGuaranteedRef { $0.releaseHandle() }
    }
    if observationWord != 0 { ObservationVisibility.release(observationWord) }
  }

  /// The current value.
  ///
  /// Reading right after a write returns the written value, even inside a `batch` or a sink,
  /// where the write has not been delivered yet: derived values are then computed on demand
  /// from the newest writes.
  ///
  /// - Complexity: O(1) with one uncontended lock, unless a write is still waiting for
  ///   delivery, when a derived value is recomputed from its sources.
  @inlinable
  public final var value: Value { node.trackedValue(visibleThrough: self) }

  /// Calls `sink` at once with the current value, then with every change, in order.
  ///
  /// The subscription lasts until the returned token is cancelled or released.
  ///
  /// - Parameter sink: Called on the thread that delivers the change (the writer's thread,
  ///   unless another thread was already delivering this property's changes). Never called
  ///   concurrently with itself.
  /// - Returns: The token that keeps the subscription alive.
  @inlinable
  public final func subscribe(_ sink: @escaping @Sendable (Value) -> Void) -> SubscriptionToken {
    node.subscribe(emitsCurrentValue: true, sink)
  }

  /// Calls `sink` at once with the current value, then with every change, in order, and
  /// `onCompleted` once when the property completes: when the relays it follows are released,
  /// after their last value has been delivered.
  ///
  /// ```swift
  /// let token = viewModel.count.subscribe { count in
  ///   print(count)
  /// } onCompleted: {
  ///   print("the view model is gone")
  /// }
  /// ```
  ///
  /// A property derived from several relays completes when the last of them is released. A
  /// property that never changes (``init(value:)``), or one whose relays were already
  /// released, calls `sink` with its value and then `onCompleted` at once.
  ///
  /// > Important: Cancelling or releasing the token ends the subscription without completion:
  /// > `onCompleted` is not called after `cancel()`.
  ///
  /// - Parameters:
  ///   - sink: Called on the thread that delivers the change. Never called concurrently with
  ///     itself.
  ///   - onCompleted: Called once, after every value has reached `sink`, on the thread that
  ///     completes the property (the one that releases the last relay behind it).
  /// - Returns: The token that keeps the subscription alive.
  public final func subscribe(
    _ sink: @escaping @Sendable (Value) -> Void,
    onCompleted: @escaping @Sendable () -> Void
  ) -> SubscriptionToken {
    node.subscribe(emitsCurrentValue: true, onCompletion: onCompleted, sink)
  }

  /// Calls `sink` at once with the current value, then with every change, in order, until
  /// `bag` ends its subscriptions (it is released, or its `cancelAll()` is called).
  ///
  /// ```swift
  /// let subscriptions = SubscriptionBag()
  /// viewModel.count.subscribe(in: subscriptions) { print($0) }
  /// ```
  ///
  /// The bag keeps the subscription for a pointer's worth of memory, with no token object.
  ///
  /// - Parameters:
  ///   - bag: The bag that ends the subscription.
  ///   - sink: Called on the thread that delivers the change, as in ``subscribe(_:)``.
  @inlinable
  public final func subscribe(
    in bag: SubscriptionBag, _ sink: @escaping @Sendable (Value) -> Void
  ) {
    node.subscribe(in: bag, emitsCurrentValue: true, sink)
  }
}

// Safe: the only stored property is a `let` of a Sendable node, and no type outside this package
// can subclass `Property` (no designated initializer is public); `BehaviorRelay`, the one
// subclass, adds no stored state. A non-final class needs `@unchecked` to conform.
extension Property: @unchecked Sendable where Value: Sendable {}
