import InvalidatingCore

extension Property {
  /// Assigns the property's value to `object[keyPath: keyPath]` now and on every change, on
  /// the thread that delivers it, holding `object` weakly.
  ///
  /// ```swift
  /// final class LevelStore: Sendable {   // safe to set from any thread
  ///   private let storage = Mutex(0.0)
  ///   var latest: Double {
  ///     get { storage.withLock { $0 } }
  ///     set { storage.withLock { $0 = newValue } }
  ///   }
  /// }
  /// let token = sensor.level.bind(to: store, \.latest)
  /// ```
  ///
  /// The binding ends when the token is cancelled or released, or when `object` is released
  /// (at the next change, it finds the object gone and ends itself). It never keeps `object`
  /// alive, so storing the token in the object itself makes no cycle.
  ///
  /// > Important: The assignment runs on the thread that delivers the change, so `object` must
  /// > be `Sendable` and the key path too (a key path to a property isolated to an actor, such
  /// > as a `@MainActor` view controller's, is not). To bind a `@MainActor` object, call
  /// > `bind(to:_:)` from the main actor: with `import Invalidating`, that overload assigns on
  /// > the main actor and hops there for changes written elsewhere.
  ///
  /// - Parameters:
  ///   - object: The object to update. Held weakly.
  ///   - keyPath: The property of `object` to assign.
  /// - Returns: The token that keeps the binding alive.
  public func bind<Object: AnyObject & Sendable>(
    to object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value> & Sendable
  ) -> SubscriptionToken {
    let target = _WeakTarget(object, keyPath)
    return subscribeWhile { target.assign($0) }
  }

  /// Accepts every value of this property into `relay`, starting with the current one, holding
  /// the relay weakly.
  ///
  /// ```swift
  /// settings.fontSize.bind(to: $previewFontSize)
  /// ```
  ///
  /// Values reach the relay in order. A binding that feeds back into its own source is legal:
  /// the engine queues each write after the current delivery instead of nesting it.
  ///
  /// - Parameter relay: The relay to feed. Held weakly: the binding ends once it is released.
  /// - Returns: The token that keeps the binding alive.
  public func bind(to relay: BehaviorRelay<Value>) -> SubscriptionToken {
    bind(weakly: relay) { $0.accept($1) }
  }

  /// Accepts every value of this property into `relay`, starting with the current one, holding
  /// the relay weakly.
  ///
  /// - Parameter relay: The relay to feed. Held weakly: the binding ends once it is released.
  /// - Returns: The token that keeps the binding alive.
  public func bind(to relay: PublishRelay<Value>) -> SubscriptionToken {
    bind(weakly: relay) { $0.accept($1) }
  }

  /// Gives every value to `relay` through `accept`, holding the relay weakly; the binding ends
  /// once the relay is released.
  private func bind<Relay: AnyObject>(
    weakly relay: Relay, _ accept: @escaping @Sendable (Relay, Value) -> Void
  ) -> SubscriptionToken {
    _bind(weakly: relay, subscribe: subscribe, accept)
  }

  /// Subscribes `deliver`, ending the subscription the first time it returns `false` (its
  /// target is gone).
  private func subscribeWhile(
    _ deliver: @escaping @Sendable (Value) -> Bool
  ) -> SubscriptionToken {
    _subscribe(while: deliver, subscribe: subscribe)
  }
}

/// Gives every value `subscribe` delivers to `relay` through `accept`, holding the relay
/// weakly; the subscription ends once the relay is released. (`bind(to:)` of properties and
/// signals.)
func _bind<Relay: AnyObject, Value>(
  weakly relay: Relay,
  subscribe: (@escaping @Sendable (Value) -> Void) -> SubscriptionToken,
  _ accept: @escaping @Sendable (Relay, Value) -> Void
) -> SubscriptionToken {
  let target = _WeakRelay(relay)
  return _subscribe(
    while: { value in
      guard let relay = target.relay else { return false }
      accept(relay, value)
      return true
    }, subscribe: subscribe)
}

/// Subscribes `deliver` through `subscribe`, ending the subscription the first time it
/// returns `false` (its target is gone).
func _subscribe<Value>(
  while deliver: @escaping @Sendable (Value) -> Bool,
  subscribe: (@escaping @Sendable (Value) -> Void) -> SubscriptionToken
) -> SubscriptionToken {
  let link = _SubscriptionLink()
  let token = subscribe { value in
    if !deliver(value) { link.cancel() }
  }
  link.token = token
  return token
}

/// A weakly held object and the key path a binding assigns.
final class _WeakTarget<Object: AnyObject & Sendable, Value>: @unchecked Sendable {
  // Safe: the fields are never reassigned (the weak reference is only cleared by the runtime,
  // which does so atomically), and the object and the key path are both `Sendable`, so
  // assigning through them from the delivering thread is what their types allow.
  private weak var object: Object?
  private let keyPath: ReferenceWritableKeyPath<Object, Value> & Sendable

  init(_ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value> & Sendable) {
    self.object = object
    self.keyPath = keyPath
  }

  /// Assigns `value`; returns `false` if the object is gone.
  func assign(_ value: Value) -> Bool {
    guard let object else { return false }
    object[keyPath: keyPath] = value
    return true
  }
}

/// A weakly held relay.
final class _WeakRelay<Relay: AnyObject>: @unchecked Sendable {
  // Safe: the field is never reassigned; the runtime clears weak references atomically, and
  // relays are safe to write from any thread.
  private(set) weak var relay: Relay?

  init(_ relay: Relay) {
    self.relay = relay
  }
}

/// Lets a sink end its own subscription: the token, weakly, so the sink does not keep it alive.
final class _SubscriptionLink: @unchecked Sendable {
  // Safe: `token` is set once, right after subscribing, under `lock`, and read under it.
  private let lock = Lock()
  private weak var _token: SubscriptionToken?

  var token: SubscriptionToken? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return _token
    }
    set {
      lock.lock()
      _token = newValue
      lock.unlock()
    }
  }

  func cancel() {
    token?.cancel()
  }
}
