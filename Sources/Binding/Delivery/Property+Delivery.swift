import Dispatch
import InvalidatingCore

extension Property {
  /// Calls `sink` on `queue` with the current value, then with the property's changes, in
  /// order, coalescing those that arrive faster than `queue` runs them.
  ///
  /// ```swift
  /// let token = service.status.observe(on: .main) { status in print(status) }
  /// ```
  ///
  /// Use it to hand a property written on many threads to code that runs on one queue. The name
  /// is ReactiveX's and Combine's: `observe(on:)` (Combine: `receive(on:)`) names where the
  /// *sink* runs; nothing here changes where the writes happen. For a main-actor sink, prefer
  /// `drive(_:)`, which runs at once when the write happens on the main actor.
  ///
  /// **Coalescing.** While a delivery is waiting on `queue`, newer values replace the waiting
  /// one: a burst of writes costs one hop and one sink call, with the newest value. The sink
  /// never sees an older value after a newer one, and after the writers stop its last call has
  /// the final value. Use the plain `subscribe(_:)` where every intermediate value matters.
  ///
  /// > Important: The sink always runs later, on `queue`, even when the write happens there.
  /// > After the token is cancelled or released, a call already waiting on `queue` is dropped.
  /// > When the property completes (its relays are released), the last value still arrives.
  ///
  /// - Parameters:
  ///   - queue: The queue to run `sink` on. A serial queue keeps the calls one at a time; so
  ///     does a concurrent one, as the calls never overlap.
  ///   - sink: Called on `queue`.
  /// - Returns: The token that keeps the subscription alive.
  public func observe(
    on queue: DispatchQueue, _ sink: @escaping @Sendable (Value) -> Void
  ) -> SubscriptionToken {
    subscribeThroughHop(Hop(.latest, schedule: { flush in queue.async(execute: flush) }, run: sink))
  }

  /// Calls `sink` isolated to `actor` with the current value, then with the property's
  /// changes, in order, coalescing those that arrive faster than the actor runs them.
  ///
  /// ```swift
  /// let token = service.status.observe(on: renderer) { renderer, status in
  ///   renderer.show(status)
  /// }
  /// ```
  ///
  /// An actor with a custom executor runs `sink` on that executor. Coalescing and ordering are
  /// as for ``observe(on:_:)-(DispatchQueue,_)``: the sink never sees an older value after
  /// a newer one, and ends on the final value.
  ///
  /// > Important: The sink always runs later, in a task on the actor. After the token is
  /// > cancelled or released, a call still waiting for the actor is dropped. When the property
  /// > completes, the last value still arrives.
  ///
  /// - Parameters:
  ///   - actor: The actor to run `sink` on.
  ///   - sink: Called isolated to `actor`, with the actor and the value.
  /// - Returns: The token that keeps the subscription alive.
  public func observe<Target: Actor>(
    on actor: Target, _ sink: @escaping @Sendable (isolated Target, Value) -> Void
  ) -> SubscriptionToken {
    subscribeThroughHop(
      Hop(.latest, schedule: { flush in _startTask { await actor._run(flush) } }) { value in
        // Safe: the hop hands each value to one flush, which runs it here and keeps no other
        // reference; the engine moves values between threads the same way.
        nonisolated(unsafe) let value = value
        // A flush runs inside `_run`, isolated to `actor`.
        actor.assumeIsolated { actor in sink(actor, value) }
      })
  }

  /// Calls `sink` on `queue` with the current value, then with the property's changes.
  ///
  /// - Parameters:
  ///   - queue: The queue to run `sink` on.
  ///   - sink: Called on `queue`.
  /// - Returns: The token that keeps the subscription alive.
  @available(
    *, deprecated, renamed: "observe(on:_:)",
    message:
      "`subscribe(on:)` names where the upstream runs in RxSwift and Combine; this is delivery"
  )
  public func subscribe(
    on queue: DispatchQueue, _ sink: @escaping @Sendable (Value) -> Void
  ) -> SubscriptionToken {
    observe(on: queue, sink)
  }

  /// Calls `sink` isolated to `actor` with the current value, then with the property's changes.
  ///
  /// - Parameters:
  ///   - actor: The actor to run `sink` on.
  ///   - sink: Called isolated to `actor`, with the actor and the value.
  /// - Returns: The token that keeps the subscription alive.
  @available(
    *, deprecated, renamed: "observe(on:_:)",
    message:
      "`subscribe(on:)` names where the upstream runs in RxSwift and Combine; this is delivery"
  )
  public func subscribe<Target: Actor>(
    on actor: Target, _ sink: @escaping @Sendable (isolated Target, Value) -> Void
  ) -> SubscriptionToken {
    observe(on: actor, sink)
  }
}

extension Property {
  /// Subscribes through `hop`, which keeps the newest value for the target and completes with
  /// the property (its last value still arrives).
  func subscribeThroughHop(_ hop: Hop<Value>) -> SubscriptionToken {
    node.subscribe(
      emitsCurrentValue: true, onCompletion: { [hop] in hop.complete() },
      { [hop] value in hop.send(value) })
  }
}

extension Actor {
  /// Runs `body` isolated to this actor.
  fileprivate func _run(_ body: @Sendable () -> Void) {
    body()
  }
}
