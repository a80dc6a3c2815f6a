import InvalidatingCore

/// A unit of async work with its state: whether it can run, whether it runs, what it produced
/// (ReactiveSwift's and RxSwiftCommunity's `Action`).
///
/// ```swift
/// let signUp = Action(enabledIf: formIsValid) { (form: SignUpForm) in
///   try await api.signUp(form)
/// }
/// signUp.isEnabled      // Property<Bool>: formIsValid, and not executing
/// signUp.isExecuting    // Property<Bool>
/// signUp.values         // Signal<User>
/// signUp.errors         // Signal<any Error>
/// signUp.apply(form)    // false, doing nothing, when disabled
/// ```
///
/// One execution at a time: ``apply(_:)`` and ``execute(_:)`` start the work only if the
/// action is enabled, and the check and the start are one atomic step, so two threads that
/// apply at once never both start it. The work runs in a task of its own, off the main actor
/// unless it is `@MainActor`. When it ends, `isExecuting` turns `false` and then its value or
/// error is delivered (in one `batch`: sinks of `values` see `isExecuting` already `false`,
/// and may apply the action again).
///
/// > Important: Errors are values: a failed execution delivers its error on `errors` and the
/// > action stays usable. Releasing the action cancels an execution in flight; its outcome is
/// > then not delivered.
public final class Action<Input: Sendable, Output: Sendable>: Sendable {
  /// Whether the action can start: its `enabledIf` property is `true` and it is not
  /// executing.
  public let isEnabled: Property<Bool>
  /// Whether an execution is in flight.
  public let isExecuting: Property<Bool>
  /// The value of each execution that succeeds, when it ends.
  public let values: Signal<Output>
  /// The error of each execution that fails, when it ends.
  public let errors: Signal<any Error>

  private let state: _ActionState
  /// Executions in flight: 0 or 1 once settled; counted up and down, so that the end of one
  /// and the start of the next, on two threads, cannot leave it stale.
  private let executions = BehaviorRelay(0)
  private let valueRelay = PublishRelay<Output>()
  private let errorRelay = PublishRelay<any Error>()
  private let enabledIf: Property<Bool>
  private let work: @Sendable (Input) async throws -> Output

  /// Creates an action that runs `work`, while `enabledIf` is `true`.
  ///
  /// - Parameters:
  ///   - enabledIf: Whether the action may start, besides not executing; always, if omitted.
  ///   - work: The work of one execution.
  public init(
    enabledIf: Property<Bool> = Property(value: true),
    _ work: @escaping @Sendable (Input) async throws -> Output
  ) {
    self.enabledIf = enabledIf
    self.work = work
    state = _ActionState()
    let isExecuting = executions.map { $0 > 0 }.removeDuplicates()
    self.isExecuting = isExecuting
    isEnabled = Property.combineLatest(enabledIf, isExecuting) { $0 && !$1 }.removeDuplicates()
    values = valueRelay.asSignal()
    errors = errorRelay.asSignal()
  }

  deinit {
    state.cancel()
  }

  /// Starts the work with `input`, unless the action is disabled; its outcome arrives on
  /// ``values`` or ``errors``.
  ///
  /// - Parameter input: The input of the work.
  /// - Returns: Whether the work started (`false`: the action was disabled, and nothing
  ///   happened).
  @discardableResult
  public func apply(_ input: Input) -> Bool {
    start(input) { _ in }
  }

  /// Runs the work with `input`, unless the action is disabled, and returns its value (which
  /// ``values`` delivers too).
  ///
  /// - Parameter input: The input of the work.
  /// - Returns: The work's value.
  /// - Throws: ``ActionDisabledError`` if the action was disabled; otherwise the work's error
  ///   (which ``errors`` delivers too), or `CancellationError` if the action was released.
  public func execute(_ input: Input) async throws -> Output {
    let result: Result<Output, any Error> = await withCheckedContinuation { continuation in
      if !start(input, then: { continuation.resume(returning: $0) }) {
        continuation.resume(returning: .failure(ActionDisabledError()))
      }
    }
    return try result.get()
  }

  /// Starts the work if enabled, atomically; `then` gets its outcome.
  private func start(
    _ input: Input, then: @escaping @Sendable (Result<Output, any Error>) -> Void
  ) -> Bool {
    let enabledIf = enabledIf
    guard let execution = state.begin(if: { enabledIf.value }) else { return false }
    executions.modify { $0 += 1 }
    let (work, state, executions, values, errors) = (
      work, state, executions, valueRelay, errorRelay
    )
    state.keep(
      execution,
      _startTask {
        let result: Result<Output, any Error>
        do { result = .success(try await work(input)) } catch { result = .failure(error) }
        // Released meanwhile: the outcome is not delivered.
        guard state.end(execution) else {
          executions.modify { $0 -= 1 }
          then(.failure(CancellationError()))
          return
        }
        batch {
          executions.modify { $0 -= 1 }
          switch result {
          case .success(let value): values.accept(value)
          case .failure(let error): errors.accept(error)
          }
        }
        then(result)
      })
    return true
  }
}

/// The error ``Action/execute(_:)`` throws when the action is disabled.
public struct ActionDisabledError: Error, Sendable {
  /// Creates the error.
  public init() {}
}

/// Whether an action executes, changed in one locked step with the check that allows it.
final class _ActionState: @unchecked Sendable {
  // Safe: every field is only touched while `lock` is held.
  private let lock = Lock()
  /// The execution in flight, if any, and the number of the last one started.
  private var current: UInt64?
  private var started: UInt64 = 0
  private var isCancelled = false
  private var task: Task<Void, Never>?

  /// Starts an execution if none is in flight and `isAllowed()`: its number, or `nil`.
  func begin(if isAllowed: () -> Bool) -> UInt64? {
    lock.lock()
    defer { lock.unlock() }
    guard current == nil, !isCancelled, isAllowed() else { return nil }
    started &+= 1
    current = started
    return started
  }

  /// Keeps the task of `execution`, for a cancellation, unless it has ended already.
  func keep(_ execution: UInt64, _ task: Task<Void, Never>) {
    lock.lock()
    if current == execution { self.task = task }
    let cancelled = isCancelled
    lock.unlock()
    if cancelled { task.cancel() }
  }

  /// Ends `execution`; returns `false` if the action was released meanwhile.
  func end(_ execution: UInt64) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if current == execution {
      current = nil
      task = nil
    }
    return !isCancelled
  }

  /// The action is released: cancels the execution in flight.
  func cancel() {
    lock.lock()
    isCancelled = true
    let task = task
    self.task = nil
    lock.unlock()
    task?.cancel()
  }
}
