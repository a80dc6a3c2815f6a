import InvalidatingCore

extension Signal {
  /// Accepts every event of this signal into `relay`, holding the relay weakly.
  ///
  /// ```swift
  /// let forwarding = refreshTaps.bind(to: model.reload)
  /// ```
  ///
  /// Events reach the relay in order; the binding ends when the token is cancelled or
  /// released, or once the relay is released.
  ///
  /// - Parameter relay: The relay to feed. Held weakly.
  /// - Returns: The token that keeps the binding alive.
  public func bind(to relay: PublishRelay<Element>) -> SubscriptionToken {
    bind(weakly: relay) { $0.accept($1) }
  }

  /// Accepts every event of this signal into `relay` as its new value, holding the relay
  /// weakly: the relay holds the latest event.
  ///
  /// ```swift
  /// let selecting = rowTaps.map(\.id).bind(to: selectedID)
  /// ```
  ///
  /// - Parameter relay: The relay to write. Held weakly.
  /// - Returns: The token that keeps the binding alive.
  public func bind(to relay: BehaviorRelay<Element>) -> SubscriptionToken {
    bind(weakly: relay) { $0.accept($1) }
  }

  /// Gives every event to `relay` through `accept`, holding it weakly; the binding ends once
  /// the relay is released.
  private func bind<Relay: AnyObject>(
    weakly relay: Relay, _ accept: @escaping @Sendable (Relay, Element) -> Void
  ) -> SubscriptionToken {
    _bind(weakly: relay, subscribe: { subscribe($0) }, accept)
  }
}
