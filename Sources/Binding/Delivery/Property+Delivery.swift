import Dispatch
import InvalidatingCore

extension Property {
  /// Calls `sink` on `queue` with the current value, then with the property's changes, in
  /// order, coalescing those that arrive faster than `queue` runs them.
  ///
  /// ```swift
  /// let token = service.status.subscribe(on: .main) { status in label.text = status.title }
  /// ```
  ///
  /// Use it to feed a view, which lives on the main thread, from a service that writes on
  /// background threads. Unlike ReactiveX's `subscribeOn`, `on:` names where the *sink* runs.
  ///
  /// **Coalescing.** While a delivery is waiting on `queue`, newer values replace the waiting
  /// one: a burst of writes costs one hop and one sink call, with the newest value. The sink
  /// never sees an older value after a newer one, and after the writers stop its last call has
  /// the final value. Use the plain `subscribe(_:)` where every intermediate value matters.
  ///
  /// > Important: After the token is cancelled or released, a call already waiting on `queue`
  /// > is dropped. When the property completes (its relays are released), the last value still
  /// > arrives.
  ///
  /// - Parameters:
  ///   - queue: The queue to run `sink` on. A serial queue keeps the calls one at a time.
  ///   - sink: Called on `queue`.
  /// - Returns: The token that keeps the subscription alive.
  public func subscribe(
    on queue: DispatchQueue, _ sink: @escaping @Sendable (Value) -> Void
  ) -> SubscriptionToken {
    _Mailbox.subscribe(
      to: node,
      schedule: { drain in queue.async(execute: drain) },
      deliver: { mailbox in
        if let value = mailbox.take() { sink(value) }
      })
  }

  /// Calls `sink` isolated to `actor` with the current value, then with the property's
  /// changes, in order, coalescing those that arrive faster than the actor runs them.
  ///
  /// ```swift
  /// let token = service.status.subscribe(on: renderer) { renderer, status in
  ///   renderer.show(status)
  /// }
  /// ```
  ///
  /// An actor with a custom executor runs `sink` on that executor. Coalescing and ordering are
  /// as for ``subscribe(on:_:)-(DispatchQueue,_)``: the sink never sees an older value after
  /// a newer one, and ends on the final value.
  ///
  /// > Important: After the token is cancelled or released, a call still waiting for the actor
  /// > is dropped. When the property completes, the last value still arrives.
  ///
  /// - Parameters:
  ///   - actor: The actor to run `sink` on.
  ///   - sink: Called isolated to `actor`, with the actor and the value.
  /// - Returns: The token that keeps the subscription alive.
  public func subscribe<Target: Actor>(
    on actor: Target, _ sink: @escaping @Sendable (isolated Target, Value) -> Void
  ) -> SubscriptionToken {
    _Mailbox.subscribe(
      to: node,
      schedule: { drain in Task { await actor._run(drain) } },
      deliver: { mailbox in
        // `deliver` runs inside `_run`, isolated to `actor`.
        actor.assumeIsolated { actor in
          if let value = mailbox.take() { sink(actor, value) }
        }
      })
  }

  /// Calls `sink` on the main actor with the current value, then with the property's changes,
  /// in order, coalescing those that arrive faster than the main actor runs them.
  ///
  /// ```swift
  /// let token = service.progress.subscribeOnMainActor { progress in
  ///   progressView.progress = progress   // a main-actor property
  /// }
  /// ```
  ///
  /// The main-actor counterpart of ``subscribe(on:_:)-(DispatchQueue,_)``, with the same
  /// coalescing and ordering.
  ///
  /// > Important: After the token is cancelled or released, a call still waiting for the main
  /// > actor is dropped. When the property completes, the last value still arrives.
  ///
  /// - Parameter sink: Called on the main actor.
  /// - Returns: The token that keeps the subscription alive.
  public func subscribeOnMainActor(
    _ sink: @escaping @MainActor @Sendable (Value) -> Void
  ) -> SubscriptionToken {
    _Mailbox.subscribe(
      to: node,
      schedule: { drain in Task { @MainActor in drain() } },
      deliver: { mailbox in
        MainActor.assumeIsolated {
          if let value = mailbox.take() { sink(value) }
        }
      })
  }
}

extension Actor {
  /// Runs `body` isolated to this actor.
  fileprivate func _run(_ body: @Sendable () -> Void) {
    body()
  }
}
