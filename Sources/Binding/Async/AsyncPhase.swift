/// Where the async work of a property stands: running, or finished with a value or an error.
///
/// The value of the properties that ``InvalidatingCore/Property/flatMapLatest(attempts:file:line:_:)``
/// and the other async operators of `Property` return:
///
/// ```swift
/// let availability: Property<AsyncPhase<Bool>> = username.flatMapLatest { name in
///   try await api.isAvailable(name)
/// }
/// let isChecking = availability.map(\.isRunning)
/// let message = availability.map { phase in phase.error.map { "\($0)" } ?? "" }
/// ```
///
/// An error is a value here, not the end of the property: the next value of the input starts
/// the work again (rule 15 of the contract).
public enum AsyncPhase<Output> {
  /// Work is in flight.
  case running
  /// The work finished with this value, and none is in flight.
  case success(Output)
  /// The work failed with this error, and none is in flight.
  case failure(any Error)

  /// Whether work is in flight.
  public var isRunning: Bool {
    if case .running = self { return true }
    return false
  }

  /// The value the work finished with; `nil` while running or after a failure.
  public var value: Output? {
    if case .success(let value) = self { return value }
    return nil
  }

  /// The error the work failed with; `nil` while running or after a success.
  public var error: (any Error)? {
    if case .failure(let error) = self { return error }
    return nil
  }

  /// The phase of a finished piece of work.
  ///
  /// - Parameter result: What the work returned or threw.
  public init(_ result: Result<Output, any Error>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }
}

extension AsyncPhase: Sendable where Output: Sendable {}
