import InvalidatingCore

/// Holds the newest value for a sink that runs elsewhere (a queue, an actor), so that a burst of
/// changes costs the target one hop and the sink sees the values in order, ending on the last.
///
/// The engine's sink posts; a drain scheduled on the target takes. Drains hold the mailbox
/// weakly, so after the subscription is cancelled (which releases the engine's sink, the only
/// strong owner) pending values are dropped; when the property completes instead, a final drain
/// holds it strongly so that the last value still arrives.
final class _Mailbox<Value>: @unchecked Sendable {
  // Safe: `pending` and `isDrainScheduled` are only touched while `lock` is held; values move
  // from the posting thread to the draining one through them, as the engine itself moves them
  // between threads.
  private let lock = Lock()
  /// The newest value not yet delivered.
  private var pending: Value?
  /// Whether a drain is scheduled to take `pending`.
  private var isDrainScheduled = false

  /// Stores `value`, replacing any value not yet delivered; returns whether the caller must
  /// schedule a drain (none is scheduled yet).
  func post(_ value: Value) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    pending = value
    guard !isDrainScheduled else { return false }
    isDrainScheduled = true
    return true
  }

  /// Takes the value to deliver, if an earlier drain did not; the next value posted schedules
  /// a new drain.
  func take() -> Value? {
    lock.lock()
    defer { lock.unlock() }
    isDrainScheduled = false
    return pending.take()
  }

  /// Subscribes to `node`, scheduling drains with `schedule`.
  ///
  /// - Parameters:
  ///   - schedule: Runs its argument on the target, later. Called at most once per drain.
  ///   - deliver: Called by a drain with the mailbox, on the target; it takes the value there
  ///     (taken any earlier, a value could not be handed to an actor's isolation).
  static func subscribe(
    to node: ValueNode<Value>,
    schedule: @escaping @Sendable (_ drain: @escaping @Sendable () -> Void) -> Void,
    deliver: @escaping @Sendable (_Mailbox<Value>) -> Void
  ) -> Subscription {
    let mailbox = _Mailbox<Value>()
    return node.subscribe(
      emitsCurrentValue: true,
      onCompletion: {
        // The property will not change again: deliver what is left even though the engine
        // is dropping its sink, which owned the mailbox.
        schedule { deliver(mailbox) }
      },
      { [mailbox] value in
        guard mailbox.post(value) else { return }
        schedule { [weak mailbox] in
          if let mailbox { deliver(mailbox) }
        }
      })
  }
}
