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
      return Deferred { () -> AnyPublisher<Value, Never> in
        // The subject holds the latest value until Combine subscribes to it, so the current
        // value is not lost between this subscription and Combine's.
        let subject = _Subject(CurrentValueSubject<Value, Never>(node.currentValue()))
        let token = node.subscribe(
          emitsCurrentValue: true,
          onCompletion: { subject.finish() },
          { subject.subject.send($0) })
        // A property that has completed calls `onCompletion` at once, so the subject finished
        // before Combine subscribed; a finished subject gives a new subscriber the completion
        // alone, and the value would be lost.
        if subject.isFinished { return Just(subject.subject.value).eraseToAnyPublisher() }
        return subject.subject.handleEvents(receiveCancel: { token.cancel() })
          .eraseToAnyPublisher()
      }
      .eraseToAnyPublisher()
    }
  }

  /// Lets the engine's `@Sendable` sinks hold a Combine subject.
  private final class _Subject<Value>: @unchecked Sendable {
    // Safe: Combine's subjects serialize `send` internally; the reference is immutable, and
    // `finished` is only touched while `lock` is held.
    let subject: CurrentValueSubject<Value, Never>
    private let lock = Lock()
    private var finished = false

    init(_ subject: CurrentValueSubject<Value, Never>) {
      self.subject = subject
    }

    /// Whether `finish()` has run.
    var isFinished: Bool {
      lock.lock()
      defer { lock.unlock() }
      return finished
    }

    /// Finishes the subject: the property completed.
    func finish() {
      lock.lock()
      finished = true
      lock.unlock()
      subject.send(completion: .finished)
    }
  }
#endif
