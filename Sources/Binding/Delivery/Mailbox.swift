import InvalidatingCore

/// Holds the newest value for a sink that runs elsewhere (a queue, an actor), so that a burst of
/// changes costs the target one hop and the sink sees the values in order, ending on the last.
///
/// The engine's sink posts; a drain scheduled on the target takes the value and runs the sink.
/// **One drain at a time.** A drain is scheduled when a value arrives and none is scheduled or
/// running; the drain keeps that state until after the sink ran, and delivers any newer value
/// that arrived meanwhile itself (or schedules the next drain to). So the sink never runs concurrently with itself,
/// even on a concurrent queue, and the last value posted is the last one delivered.
///
/// Drains hold the mailbox weakly, so after the subscription is cancelled (which releases the
/// engine's sink, the only strong owner) pending values are dropped; when the property
/// completes instead, the mailbox keeps itself alive until a drain finds nothing left, so that
/// the last value still arrives.
final class _Mailbox<Value>: @unchecked Sendable {
  // Safe: `pending`, `isDraining` and `keepAlive` are only touched while `lock` is held; values
  // move from the posting thread to the draining one through them, as the engine itself moves
  // them between threads. `schedule` and `deliver` are immutable.
  private let lock = Lock()
  /// The newest value not yet delivered.
  private var pending: Value?
  /// Whether a drain is scheduled or running; only a drain that finds nothing pending after
  /// its sink ran clears it.
  private var isDraining = false
  /// This mailbox, once the property completed and while a value is left to deliver.
  private var keepAlive: _Mailbox?
  /// Runs its argument on the target, later.
  private let schedule: @Sendable (_ drain: @escaping @Sendable () -> Void) -> Void
  /// Takes the value with ``take()`` and runs the sink, on the target.
  private let deliver: @Sendable (_Mailbox<Value>) -> Void

  private init(
    schedule: @escaping @Sendable (_ drain: @escaping @Sendable () -> Void) -> Void,
    deliver: @escaping @Sendable (_Mailbox<Value>) -> Void
  ) {
    self.schedule = schedule
    self.deliver = deliver
  }

  /// Stores `value`, replacing any value not yet delivered, and schedules a drain unless one
  /// is scheduled or running (which will see it).
  func post(_ value: Value) {
    lock.lock()
    pending = value
    let mustSchedule = !isDraining
    isDraining = true
    lock.unlock()
    if mustSchedule { scheduleDrain() }
  }

  /// Takes the value to deliver; called by `deliver`, on the target, once per drain.
  func take() -> Value? {
    lock.lock()
    defer { lock.unlock() }
    return pending.take()
  }

  /// The property completed: the engine drops its sink, which owned the mailbox, so the
  /// mailbox keeps itself alive until the value left (if any) has been delivered.
  func complete() {
    lock.lock()
    guard pending != nil else {
      lock.unlock()
      return
    }
    keepAlive = self
    let mustSchedule = !isDraining
    isDraining = true
    lock.unlock()
    if mustSchedule { scheduleDrain() }
  }

  private func scheduleDrain() {
    schedule { [weak self] in self?.drain() }
  }

  /// How many sink calls one drain makes at most before it lets the target run other work.
  static var callsPerDrain: Int { 64 }

  /// One drain: the sink runs with the newest value, and again while a newer one arrived
  /// meanwhile, so that work submitted to a serial queue after a write runs after the sink saw
  /// it. After ``callsPerDrain`` calls the drain schedules the next one instead, so a writer
  /// faster than the sink cannot hold the target (the main queue, say) for ever. Once nothing
  /// is pending the mailbox is idle again.
  private func drain() {
    for _ in 0..<Self.callsPerDrain {
      deliver(self)
      lock.lock()
      guard pending != nil else {
        isDraining = false
        let released = keepAlive.take()
        lock.unlock()
        withExtendedLifetime(released) {}  // let go outside the lock
        return
      }
      lock.unlock()
    }
    scheduleDrain()
  }

  /// Subscribes to `node`, scheduling drains with `schedule`.
  ///
  /// - Parameters:
  ///   - schedule: Runs its argument on the target, later. Called at most once per drain, and
  ///     never while a drain it scheduled is waiting or running.
  ///   - deliver: Called by a drain with the mailbox, on the target; it takes the value there
  ///     (taken any earlier, a value could not be handed to an actor's isolation).
  static func subscribe(
    to node: ValueNode<Value>,
    schedule: @escaping @Sendable (_ drain: @escaping @Sendable () -> Void) -> Void,
    deliver: @escaping @Sendable (_Mailbox<Value>) -> Void
  ) -> SubscriptionToken {
    let mailbox = _Mailbox<Value>(schedule: schedule, deliver: deliver)
    return node.subscribe(
      emitsCurrentValue: true,
      onCompletion: { [mailbox] in mailbox.complete() },
      { [mailbox] value in mailbox.post(value) })
  }
}
