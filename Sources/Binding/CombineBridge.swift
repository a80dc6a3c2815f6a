// Apple platforms only: Combine does not exist on Linux, so this file is not compiled there.
#if canImport(Combine)
  import Combine
  import InvalidatingCore

  extension Property {
    /// A Combine publisher of the current value, then every change; it finishes when the
    /// property completes.
    ///
    /// Each subscriber gets its own subscription to the property, ended when the Combine
    /// subscription is cancelled.
    ///
    /// - Returns: A publisher that never fails.
    public var publisher: AnyPublisher<Value, Never> {
      let node = self.node
      return Deferred {
        // The subject holds the latest value until Combine subscribes to it, so the current
        // value is not lost between this subscription and Combine's.
        let subject = _Subject(CurrentValueSubject<Value, Never>(node.currentValue()))
        let token = node.subscribe(
          emitsCurrentValue: true,
          onCompletion: { subject.subject.send(completion: .finished) },
          { subject.subject.send($0) })
        return subject.subject.handleEvents(receiveCancel: { token.cancel() })
      }
      .eraseToAnyPublisher()
    }
  }

  /// Lets the engine's `@Sendable` sinks hold a Combine subject.
  private final class _Subject<Value>: @unchecked Sendable {
    // Safe: Combine's subjects serialize `send` internally; the reference is immutable.
    let subject: CurrentValueSubject<Value, Never>

    init(_ subject: CurrentValueSubject<Value, Never>) {
      self.subject = subject
    }
  }
#endif
