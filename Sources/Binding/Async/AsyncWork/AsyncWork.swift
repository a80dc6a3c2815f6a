import InvalidatingCore

/// What a piece of async work reports to the node that delivers its output: it started, or
/// it finished (with whether other work is still in flight or waiting).
@usableFromInline
enum _AsyncUpdate<Output: Sendable>: Sendable {
  case started
  case finished(Result<Output, any Error>, isIdle: Bool)
}

/// A finished piece of work, as its task hands it to the graph.
@usableFromInline
struct _AsyncCompletion<Output: Sendable>: Sendable {
  @usableFromInline let id: UInt64
  @usableFromInline let result: Result<Output, any Error>

  @inlinable
  init(id: UInt64, result: Result<Output, any Error>) {
    self.id = id
    self.result = result
  }
}

/// Async work per element: the one primitive behind the async operators (`flatMapLatest`,
/// `flatMap`, `concatMap`, `flatMapFirst` on `Signal` and `Property`).
///
/// The operator's output is an event node whose inputs are the trigger (the signal or the
/// property) and `results`, a source of events that only this work's tasks write: a node
/// whose source is a task. Both are in one domain, so the element that supersedes a piece of
/// work and that work's result are delivered in one order: a result is delivered only if its
/// work is still in flight when the delivery reaches the node, and otherwise dropped (rule 15
/// of the contract: async work never delivers late). An element received starts its task
/// from the node's computation, under the domain's drainer role.
///
/// The output node owns this storage; the tasks hold it weakly, and its `deinit` (the output
/// is no longer observed: the signal or property, its subscriptions and what is derived from
/// it are gone) cancels every task in flight.
///
/// Inlinable, like the operators: unspecialized, each step of the work costs more in generic
/// metadata lookups than in the work itself.
@usableFromInline
final class _AsyncWork<Input: Sendable, Output: Sendable>: @unchecked Sendable {
  // Safe: `machine`, `tasks`, `inputEnd` and `receivedChange` are only touched while `lock` is
  // held (hence `@exclusivity(unchecked)`: the lock makes every access exclusive); `work` is
  // immutable; `results` is a weak reference (loaded atomically) to a thread-safe node.
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var machine: _AsyncWorkStateMachine<Input>
  /// The tasks in flight and their identifiers: a few at most, except for `.merge`.
  @exclusivity(unchecked) @usableFromInline var tasks: [(id: UInt64, task: Task<Void, Never>)] = []
  /// The subscription through which the work learns that its input has ended.
  @exclusivity(unchecked) @usableFromInline var inputEnd: SubscriptionToken?
  @usableFromInline let work: @Sendable (Input) async -> Result<Output, any Error>
  @usableFromInline weak var results: SourceNode<_AsyncCompletion<Output>?>?
  /// For a property's work: the change count of the input value last received.
  @exclusivity(unchecked) @usableFromInline var receivedChange: UInt64?
  /// Ends `results`; set with it, before the work is shared.
  @usableFromInline var endResults: @Sendable () -> Void = {}

  @inlinable
  init(
    _ strategy: _AsyncStrategy, work: @escaping @Sendable (Input) async -> Result<Output, any Error>
  ) {
    machine = _AsyncWorkStateMachine(strategy: strategy)
    self.work = work
  }

  deinit {
    for entry in tasks { entry.task.cancel() }
    inputEnd?.cancel()
  }

  /// Makes the source of results, which the output node takes as an input. Call once.
  @usableFromInline
  func makeResults() -> SourceNode<_AsyncCompletion<Output>?> {
    let results = SourceNode<_AsyncCompletion<Output>?>(
      events: _AsyncCompletion<Output>.self, origin: .kind("async work"))
    self.results = results
    endResults = { [weak results] in results?.complete() }
    return results
  }

  /// Ends the output once the input has ended and the work left is done: `token` is a
  /// subscription to the input with this end as its completion.
  @usableFromInline
  func endsWithInput(_ token: SubscriptionToken) {
    lock.lock()
    inputEnd = token
    lock.unlock()
  }

  /// The input ended.
  @usableFromInline
  func inputEnded() {
    lock.lock()
    machine.endInput()
    lock.unlock()
    endOutputIfDone()
  }

  /// Takes `element`. Role (the output node's computation, or a change in delivery order).
  @inlinable
  func receive(_ element: Input) -> _AsyncUpdate<Output>? {
    lock.lock()
    let (start, cancel) = machine.receive(element)
    let superseded = cancel.flatMap { takeTask($0) }
    if let start { begin(start) }
    lock.unlock()
    // Cancelled outside the lock: cancellation runs the task's handlers at once.
    superseded?.cancel()
    return start == nil ? nil : .started
  }

  /// Takes the property value `value`, the input's change number `change`, unless it was
  /// taken already. Role.
  @inlinable
  func receive(_ value: Input, change: UInt64) -> _AsyncUpdate<Output>? {
    lock.lock()
    guard receivedChange != change else {
      lock.unlock()
      return nil
    }
    receivedChange = change
    lock.unlock()
    return receive(value)
  }

  /// Takes a finished piece of work: its update if its result is still wanted. Role.
  @inlinable
  func finish(_ completion: _AsyncCompletion<Output>) -> _AsyncUpdate<Output>? {
    lock.lock()
    let (isWanted, next) = machine.finish(completion.id)
    _ = takeTask(completion.id)
    if let next { begin(next) }
    let isIdle = machine.isIdle
    lock.unlock()
    return isWanted ? .finished(completion.result, isIdle: isIdle) : nil
  }

  /// Starts the task of `start`. Lock.
  @inlinable
  func begin(_ start: _AsyncWorkStateMachine<Input>.Start) {
    let work = work
    let id = start.id
    let input = start.input
    let task = _startTask { [weak self, weak results] in
      let result = await work(input)
      // Superseded or unobserved: the delivery would drop it, so it is not handed over (which
      // would take the domain's drainer role, or wait for it, for nothing). The delivery's
      // check stays the one that decides: a task superseded after this one is dropped there.
      guard !Task.isCancelled, let self, let results, self.isInFlight(id) else { return }
      results.emit(_AsyncCompletion(id: id, result: result))
      self.endOutputIfDone()
    }
    tasks.append((id, task))
  }

  /// Removes and returns the task of the work `id`, if it is listed. Lock.
  @inlinable
  func takeTask(_ id: UInt64) -> Task<Void, Never>? {
    guard let index = tasks.firstIndex(where: { $0.id == id }) else { return nil }
    return tasks.remove(at: index).task
  }

  /// Whether the work `id` is still in flight (not superseded, not cancelled).
  @inlinable
  func isInFlight(_ id: UInt64) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return machine.isInFlight(id)
  }

  /// Takes `elements` (a signal's start events) in delivery order of `output`'s domain.
  @usableFromInline
  func startInOrder(with elements: [Input], in output: AnyNode) {
    Engine.performInOrder(in: output.home) { [self] in
      for element in elements { _ = receive(element) }
    }
  }

  /// Takes the value `input` has delivered so far, in delivery order of `output`'s domain
  /// (a change delivered before then has been taken already).
  @usableFromInline
  func startInOrder(with input: ValueNode<Input>, in output: AnyNode) {
    Engine.performInOrder(in: output.home) { [self] in
      let (value, change) = input.deliveredValueAndChangeCount()
      _ = receive(value, change: change)
    }
  }

  /// Ends the results source (and so the output, whose input has ended too) once the input
  /// has ended and no work is left.
  @inlinable
  func endOutputIfDone() {
    lock.lock()
    let ends = machine.takeOutputEnd()
    lock.unlock()
    if ends { endResults() }
  }
}

extension Signal where Element: Sendable {
  /// Runs `work` for each event with `strategy`: the signal of what `update` makes of each
  /// piece of work's updates (`nil`: none). `file` and `line` are the operator's caller's.
  @inlinable
  func _async<Output: Sendable, Event>(
    _ strategy: _AsyncStrategy, file: StaticString, line: UInt,
    work: @escaping @Sendable (Element) async -> Result<Output, any Error>,
    update: @escaping @Sendable (_AsyncUpdate<Output>) -> Event?
  ) -> Signal<Event> {
    let storage = _AsyncWork<Element, Output>(strategy, work: work)
    let results = storage.makeResults()
    let events = Unmanaged.passUnretained(node)
    let finished = Unmanaged<ValueNode<_AsyncCompletion<Output>?>>.passUnretained(results)
    let origin = NodeOrigin.made(strategy.operatorName, file: file, line: line)
    let output = Signal<Event>._derived(from: [node, results], origin: origin) {
      var change: _AsyncUpdate<Output>?
      if let element = ValueNode.read(events, .delivery) { change = storage.receive(element) }
      if let completion = ValueNode.read(finished, .delivery) {
        change = storage.finish(completion) ?? change
      }
      return change.flatMap(update)
    }
    // The start events (`startWith`, a property's value) are taken as the first events, in
    // delivery order; the events alone are followed for the input's end.
    storage.startInOrder(with: startEvents, in: output.node)
    let input = Signal(node: node, changesOf: changesOf)
    storage.endsWithInput(
      input.subscribe({ _ in }, onCompleted: { [weak storage] in storage?.inputEnded() }))
    return output
  }
}

extension Property where Value: Sendable {
  /// Runs `work` for this property's value and for each change with `strategy`, tried up to
  /// `attempts` times while it throws: the phase of the work. `file` and `line` are the
  /// operator's caller's.
  @inlinable
  func _async<Output: Sendable>(
    _ strategy: _AsyncStrategy, attempts: Int, file: StaticString, line: UInt,
    _ work: @escaping @Sendable (Value) async throws -> Output
  ) -> Property<AsyncPhase<Output>> {
    let storage = _AsyncWork<Value, Output>(strategy, work: _attempting(attempts, work))
    let origin = NodeOrigin.made(strategy.operatorName, file: file, line: line)
    let results = storage.makeResults()
    unowned(unsafe) let input = node
    let finished = Unmanaged<ValueNode<_AsyncCompletion<Output>?>>.passUnretained(results)
    let phases = Signal<AsyncPhase<Output>>._derived(from: [node, results], origin: origin) {
      // A new value first: the result of the work it supersedes is then dropped, and the
      // phase of a result says whether work is still in flight.
      var change = storage.receive(input.read(.delivery), change: input.changeCountIncludingStaged)
      if let completion = ValueNode.read(finished, .delivery) {
        change = storage.finish(completion) ?? change
      }
      switch change {
      case nil: return nil
      case .started, .finished(_, isIdle: false): return .running
      case .finished(let result, isIdle: true): return AsyncPhase(result)
      }
    }
    // Held first: a result that comes before the holding node exists would be lost.
    let phase = Property<AsyncPhase<Output>>(initial: .running, then: phases)
    // The work for the value delivered so far starts in delivery order; a change delivered
    // before that has started it already.
    storage.startInOrder(with: node, in: phases.node)
    storage.endsWithInput(
      subscribe({ _ in }, onCompleted: { [weak storage] in storage?.inputEnded() }))
    return phase
  }
}

extension Signal where Element: Sendable {
  /// The async operator of `strategy` for work that throws: each piece of work's outcome.
  @inlinable
  func _asyncResults<Output: Sendable>(
    _ strategy: _AsyncStrategy, attempts: Int, file: StaticString, line: UInt,
    _ work: @escaping @Sendable (Element) async throws -> Output
  ) -> Signal<Result<Output, any Error>> {
    _async(strategy, file: file, line: line, work: _attempting(attempts, work)) { update in
      guard case .finished(let result, _) = update else { return nil }
      return result
    }
  }

  /// The async operator of `strategy` for work that cannot fail: each piece of work's value.
  @inlinable
  func _asyncValues<Output: Sendable>(
    _ strategy: _AsyncStrategy, file: StaticString, line: UInt,
    _ work: @escaping @Sendable (Element) async -> Output
  ) -> Signal<Output> {
    _async(strategy, file: file, line: line) { element in
      .success(await work(element))
    } update: { update in
      guard case .finished(.success(let output), _) = update else { return nil }
      return output
    }
  }
}

/// `work`, tried up to `attempts` times while it throws (a cancelled task is not tried again),
/// its outcome as a `Result`.
@inlinable
func _attempting<Input: Sendable, Output: Sendable>(
  _ attempts: Int, _ work: @escaping @Sendable (Input) async throws -> Output
) -> @Sendable (Input) async -> Result<Output, any Error> {
  if attempts < 1 {
    Engine.misuse("attempts must be at least 1 (the first try counts as one), not \(attempts).")
  }
  return { input in
    var attempt = 1
    while true {
      do {
        return .success(try await work(input))
      } catch {
        if attempt >= attempts || Task.isCancelled || error is CancellationError {
          return .failure(error)
        }
        attempt += 1
      }
    }
  }
}
