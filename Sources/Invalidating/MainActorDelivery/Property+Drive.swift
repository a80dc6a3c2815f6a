import InvalidatingBinding
import InvalidatingCore
import InvalidatingPlatform

extension Property where Value: Sendable {
  /// Calls a main-actor `sink` with the current value at once, then with every change: at once
  /// when the change is written on the main actor, on the main actor soon after otherwise.
  ///
  /// ```swift
  /// @MainActor final class ProfileController {
  ///   private(set) var title = ""
  ///   private var tokens: [SubscriptionToken] = []
  ///
  ///   init(model: ProfileModel) {
  ///     model.name.drive { [weak self] name in self?.title = name }.store(in: &tokens)
  ///   }
  /// }
  /// ```
  ///
  /// This is RxCocoa's `Driver.drive(onNext:)` for a state property. The sink is isolated to
  /// the main actor, so a view controller assigns its own properties in it, and it may capture
  /// values that are not `Sendable`.
  ///
  /// **Synchronous on the main actor.** The sink runs before `drive` returns, with the current
  /// value, and a change written on the main actor reaches it before the write returns (or when
  /// the write's `batch` ends), so code that follows the write, such as the frame that lays out
  /// the screen, sees it. A change written on another thread is delivered later, in a
  /// main-actor task.
  ///
  /// **Coalescing.** While a change waits for the main actor, newer ones replace it: a burst
  /// of background writes costs one hop and one sink call with the newest value. The sink never
  /// sees an older value after a newer one, and after the writers stop its last call has the
  /// final value.
  ///
  /// > Important: The sink never runs nested in itself: a change the sink writes (directly or
  /// > through what it drives) is delivered to it after it returns. Once the token is cancelled
  /// > or released, a call still waiting for the main actor is dropped; when the property
  /// > completes (its relays are released), the last value still arrives. If another thread is
  /// > delivering changes of the same sources at the moment `drive` is called, the first value
  /// > may come in a main-actor task instead, still before any newer value.
  ///
  /// - Parameter sink: Called on the main actor with the current value, then with the changes.
  /// - Returns: The token that keeps the subscription alive.
  @MainActor
  public func drive(_ sink: @escaping @MainActor (Value) -> Void) -> SubscriptionToken {
    let (token, hop) = subscribeThroughMainActorHop(sink)
    // The first value arrives here before `subscribe` returns, on the main actor: run now.
    hop.flushIfIdle()
    return token
  }
}

extension Property {
  /// Calls `sink` on the main actor with the current value, then with the property's changes.
  ///
  /// - Parameter sink: Called on the main actor.
  /// - Returns: The token that keeps the subscription alive.
  @available(
    *, deprecated, renamed: "drive(_:)",
    message:
      "call drive(_:) from the main actor (it runs at once for main-actor writes), or observe(on: .main) elsewhere"
  )
  public func subscribeOnMainActor(
    _ sink: @escaping @MainActor @Sendable (Value) -> Void
  ) -> SubscriptionToken {
    let (token, hop) = subscribeThroughMainActorHop(sink)
    if _MainThread.isCurrent { hop.flushIfIdle() }
    return token
  }
}

extension Property {
  /// Subscribes `sink` through a hop to the main actor that keeps the newest value (see
  /// `Hop`): at once on the main actor, one task later from elsewhere, never nested in itself.
  /// The hop completes with the property, so the last value still arrives.
  func subscribeThroughMainActorHop(
    _ sink: @escaping @MainActor (Value) -> Void
  ) -> (SubscriptionToken, Hop<Value>) {
    let hop = Hop<Value>.toMainActor(.latest, run: sink)
    let token = node.subscribe(
      emitsCurrentValue: true, onCompletion: { [hop] in hop.complete() },
      { [hop] value in hop.send(value) })
    return (token, hop)
  }
}
