import InvalidatingCore

/// What a mailbox does next, decided under its lock by ``_MailboxState``.
enum _MailboxAction {
  /// Schedule one drain on the target.
  case scheduleDrain
  /// A drain is already scheduled; it will take the new value.
  case none
}

/// The state of a delivery elsewhere: at most one pending value (the newest) and whether a
/// drain is scheduled to take it.
struct _MailboxState<Value> {
  private var pending: Value?
  private var isDrainScheduled = false

  /// A new value arrived: it replaces any value not yet delivered.
  mutating func post(_ value: Value) -> _MailboxAction {
    pending = value
    guard !isDrainScheduled else { return .none }
    isDrainScheduled = true
    return .scheduleDrain
  }

  /// A drain runs: it takes the newest value, if any, and the next value schedules a new drain.
  mutating func take() -> Value? {
    isDrainScheduled = false
    return pending.take()
  }
}

/// Holds the newest value for a sink that runs elsewhere (a queue, an actor), so that a burst of
/// changes costs the target one hop and the sink sees the values in order, ending on the last.
///
/// The engine's sink posts; a drain scheduled on the target takes. Drains hold the mailbox
/// weakly, so after the subscription is cancelled (which releases the engine's sink, the only
/// strong owner) pending values are dropped; when the property completes instead, a final drain
/// holds it strongly so that the last value still arrives.
final class _Mailbox<Value>: @unchecked Sendable {
  // Safe: `state` is only touched while `lock` is held; values move from the posting thread to
  // the draining one through it, as the engine itself moves them between threads.
  private let lock = Lock()
  private var state = _MailboxState<Value>()

  /// Stores `value`; returns whether the caller must schedule a drain.
  func post(_ value: Value) -> Bool {
    lock.lock()
    let action = state.post(value)
    lock.unlock()
    return action == .scheduleDrain
  }

  /// Takes the value to deliver, if it was not taken by an earlier drain.
  func take() -> Value? {
    lock.lock()
    defer { lock.unlock() }
    return state.take()
  }

  /// Subscribes to `node`, scheduling drains with `schedule`.
  ///
  /// - Parameters:
  ///   - schedule: Runs its argument on the target, later. Called at most once per drain.
  ///   - deliver: Called by a drain with the mailbox, on the target.
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
