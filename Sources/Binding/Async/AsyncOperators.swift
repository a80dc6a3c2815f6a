import InvalidatingCore

// The async operators: one entry point per strategy and shape, all of them on `_AsyncWork`
// (AsyncWork/), which the strategy drives (`_asyncResults`, `_asyncValues` and a property's
// `_async`). What the strategies share (a task per element, cancelled when superseded or
// unobserved, never delivering late; the end of the input) is told in full on
// `flatMapLatest`; the others tell what their strategy does. In the order of their names,
// which is the order of the API baseline's dump.

extension Signal where Element: Sendable {
  /// Runs `work` for each event, one at a time, in order: a signal of the results.
  ///
  /// ```swift
  /// let saved = edits.concatMap { edit in try await store.save(edit) }
  /// ```
  ///
  /// An element that arrives while work is in flight waits for it, in order; results are
  /// delivered in the order of the elements (RxSwift's `concatMap`, ReactiveSwift's `.concat`).
  ///
  /// Otherwise as ``flatMapLatest(attempts:file:line:_:)-(_,_,_,(Element)->Output)``: a task
  /// per element, off the main actor unless `work` is `@MainActor`; the work in flight is
  /// cancelled once the signal is no longer observed, and never delivers late (see
  /// <doc:AsyncWork>). When this signal ends, the elements waiting still run.
  ///
  /// - Parameters:
  ///   - attempts: How many times `work` is tried for one event while it throws (the first try
  ///     counts; a cancelled try is not repeated; the next element waits for the last try).
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one event.
  /// - Returns: A signal of each piece of work's outcome, in the order of the events; errors
  ///   are values.
  @inlinable
  public func concatMap<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async throws -> Output
  ) -> Signal<Result<Output, any Error>> {
    _asyncResults(.concat, attempts: attempts, file: file, line: line, work)
  }

  /// Runs `work`, which cannot fail, for each event, one at a time, in order: a signal of the results.
  ///
  /// The same operator as ``concatMap(attempts:file:line:_:)-(_,_,_,(Element)->Output)``, for work
  /// that does not throw.
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one event.
  /// - Returns: A signal of the results, in the order of the events.
  @inlinable
  public func concatMap<Output: Sendable>(
    file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async -> Output
  ) -> Signal<Output> {
    _asyncValues(.concat, file: file, line: line, work)
  }

  /// Runs `work` for each event, all of them concurrently: a signal of the results.
  ///
  /// ```swift
  /// let uploaded = photoPicked.flatMap { photo in try await uploader.upload(photo) }
  /// ```
  ///
  /// Every element's work runs, concurrently, and each result is delivered as it comes, in the
  /// order the work finishes (RxSwift's `flatMap`, ReactiveSwift's `.merge`).
  ///
  /// Otherwise as ``flatMapLatest(attempts:file:line:_:)-(_,_,_,(Element)->Output)``: a task
  /// per element, off the main actor unless `work` is `@MainActor`; the work in flight is
  /// cancelled once the signal is no longer observed, and never delivers late (see
  /// <doc:AsyncWork>).
  ///
  /// - Parameters:
  ///   - attempts: How many times `work` is tried for one event while it throws (the first try
  ///     counts; a cancelled try is not repeated).
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one event.
  /// - Returns: A signal of each piece of work's outcome, as it finishes; errors are values.
  @inlinable
  public func flatMap<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async throws -> Output
  ) -> Signal<Result<Output, any Error>> {
    _asyncResults(.merge, attempts: attempts, file: file, line: line, work)
  }

  /// Runs `work`, which cannot fail, for each event, all of them concurrently: a signal of the results.
  ///
  /// The same operator as ``flatMap(attempts:file:line:_:)-(_,_,_,(Element)->Output)``, for work
  /// that does not throw.
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one event.
  /// - Returns: A signal of the results, as the work finishes.
  @inlinable
  public func flatMap<Output: Sendable>(
    file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async -> Output
  ) -> Signal<Output> {
    _asyncValues(.merge, file: file, line: line, work)
  }

  /// Runs `work` for each event, ignoring those that arrive while work is in flight: a signal of the results.
  ///
  /// ```swift
  /// let refreshed = pullToRefresh.flatMapFirst { try await feed.reload() }
  /// ```
  ///
  /// An element that arrives while work is in flight is dropped: the work in flight runs to its
  /// end and delivers (RxSwift's `flatMapFirst`, ReactiveSwift's `.throttle`).
  ///
  /// Otherwise as ``flatMapLatest(attempts:file:line:_:)-(_,_,_,(Element)->Output)``: a task
  /// per element it takes, off the main actor unless `work` is `@MainActor`; the work in
  /// flight is cancelled once the signal is no longer observed, and never delivers late (see
  /// <doc:AsyncWork>).
  ///
  /// - Parameters:
  ///   - attempts: How many times `work` is tried for one event while it throws (the first try
  ///     counts; a cancelled try is not repeated; events are dropped until the last try ends).
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one event.
  /// - Returns: A signal of the outcome of each piece of work that ran; errors are values.
  @inlinable
  public func flatMapFirst<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async throws -> Output
  ) -> Signal<Result<Output, any Error>> {
    _asyncResults(.first, attempts: attempts, file: file, line: line, work)
  }

  /// Runs `work`, which cannot fail, for each event, ignoring those that arrive while work is in flight: a signal of the results.
  ///
  /// The same operator as ``flatMapFirst(attempts:file:line:_:)-(_,_,_,(Element)->Output)``, for work
  /// that does not throw.
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one event.
  /// - Returns: A signal of the results of the work that ran.
  @inlinable
  public func flatMapFirst<Output: Sendable>(
    file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async -> Output
  ) -> Signal<Output> {
    _asyncValues(.first, file: file, line: line, work)
  }

  /// Runs `work` for each event, cancelling the work in flight when a new one arrives (latest wins): a signal of the results.
  ///
  /// ```swift
  /// let results = query.changes
  ///   .debounce(for: .milliseconds(300), clock: ContinuousClock())
  ///   .flatMapLatest { text in try await api.search(text) }
  ///   .replaceError(with: [])
  /// ```
  ///
  /// A new element cancels the task in flight and its result, should it still come, is never
  /// delivered: only the latest element's result is (RxSwift's `flatMapLatest`, ReactiveSwift's
  /// `.latest`).
  ///
  /// The work runs in a task of its own for each element it takes, off the main actor unless
  /// `work` is `@MainActor`; its result is delivered from that task, by the engine's rules. When
  /// the signal is no longer observed (it, its subscriptions and what is derived from it are
  /// released), the work in flight is cancelled. When this signal ends, the work in flight runs
  /// to its end and delivers, then the result ends too.
  ///
  /// > Important: Async work never delivers late (rule 15 of the contract): a result is
  /// > delivered only while its work is wanted; a superseded or unobserved task is cancelled and
  /// > its result dropped.
  ///
  /// - Parameters:
  ///   - attempts: How many times `work` is tried for one event while it throws (the first try
  ///     counts; a cancelled try is not repeated). RxSwift's `retry(3)` is `attempts: 3`.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one event.
  /// - Returns: A signal of each piece of work's outcome: errors are values (see
  ///   ``replaceError(with:file:line:)``, ``successes()`` and ``failures()``), and never end the signal.
  @inlinable
  public func flatMapLatest<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async throws -> Output
  ) -> Signal<Result<Output, any Error>> {
    _asyncResults(.latest, attempts: attempts, file: file, line: line, work)
  }

  /// Runs `work`, which cannot fail, for each event, cancelling the work in flight when a new one arrives (latest wins): a signal of the results.
  ///
  /// The same operator as ``flatMapLatest(attempts:file:line:_:)-(_,_,_,(Element)->Output)``, for work
  /// that does not throw.
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one event.
  /// - Returns: A signal of the results.
  @inlinable
  public func flatMapLatest<Output: Sendable>(
    file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async -> Output
  ) -> Signal<Output> {
    _asyncValues(.latest, file: file, line: line, work)
  }

}

extension Property where Value: Sendable {
  /// Runs `work` for the current value and for each change, one at a time, in order: a property of where the
  /// work stands.
  ///
  /// ```swift
  /// let synced = draft.concatMap { text in try await server.save(text) }
  /// ```
  ///
  /// An element that arrives while work is in flight waits for it, in order; results are
  /// delivered in the order of the elements (RxSwift's `concatMap`, ReactiveSwift's `.concat`).
  ///
  /// Otherwise as ``InvalidatingCore/Property/flatMapLatest(attempts:file:line:_:)``: the
  /// property is ``AsyncPhase/running`` while work is in flight or waiting, then the last
  /// work's value or error; the work in flight is cancelled once the property is no longer
  /// observed (see <doc:AsyncWork>).
  ///
  /// - Parameters:
  ///   - attempts: How many times `work` is tried for one value while it throws (the first try
  ///     counts; a cancelled try is not repeated; the next value waits for the last try).
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one value.
  /// - Returns: The phase of the work, starting ``AsyncPhase/running``.
  @inlinable
  public func concatMap<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Value) async throws -> Output
  ) -> Property<AsyncPhase<Output>> {
    _async(.concat, attempts: attempts, file: file, line: line, work)
  }

  /// Runs `work` for the current value and for each change, all of them concurrently: a property of where the
  /// work stands.
  ///
  /// ```swift
  /// let thumbnails = selection.flatMap { photo in await renderer.thumbnail(photo) }
  /// ```
  ///
  /// Every element's work runs, concurrently, and each result is delivered as it comes, in the
  /// order the work finishes (RxSwift's `flatMap`, ReactiveSwift's `.merge`).
  ///
  /// Otherwise as ``InvalidatingCore/Property/flatMapLatest(attempts:file:line:_:)``: the
  /// property is ``AsyncPhase/running`` while any work is in flight, then the last finished
  /// work's value or error; the work in flight is cancelled once the property is no longer
  /// observed (see <doc:AsyncWork>).
  ///
  /// - Parameters:
  ///   - attempts: How many times `work` is tried for one value while it throws (the first try
  ///     counts; a cancelled try is not repeated).
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one value.
  /// - Returns: The phase of the work, starting ``AsyncPhase/running``; a result is a phase
  ///   only once no other work is in flight.
  @inlinable
  public func flatMap<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Value) async throws -> Output
  ) -> Property<AsyncPhase<Output>> {
    _async(.merge, attempts: attempts, file: file, line: line, work)
  }

  /// Runs `work` for the current value and for each change, ignoring those that arrive while work is in flight: a property of where the
  /// work stands.
  ///
  /// ```swift
  /// let checked = token.flatMapFirst { token in try await auth.validate(token) }
  /// ```
  ///
  /// An element that arrives while work is in flight is dropped: the work in flight runs to its
  /// end and delivers (RxSwift's `flatMapFirst`, ReactiveSwift's `.throttle`).
  ///
  /// Otherwise as ``InvalidatingCore/Property/flatMapLatest(attempts:file:line:_:)``: the
  /// property is ``AsyncPhase/running`` while work is in flight, then its value or error; the
  /// work in flight is cancelled once the property is no longer observed (see
  /// <doc:AsyncWork>).
  ///
  /// - Parameters:
  ///   - attempts: How many times `work` is tried for one value while it throws (the first try
  ///     counts; a cancelled try is not repeated; changes are dropped until the last try ends).
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one value.
  /// - Returns: The phase of the work, starting ``AsyncPhase/running``: the phase of the work
  ///   that ran.
  @inlinable
  public func flatMapFirst<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Value) async throws -> Output
  ) -> Property<AsyncPhase<Output>> {
    _async(.first, attempts: attempts, file: file, line: line, work)
  }

  /// Runs `work` for the current value and for each change, cancelling the work in flight when a new one arrives (latest wins): a property of where the
  /// work stands.
  ///
  /// ```swift
  /// let availability = username.flatMapLatest { name in try await api.isAvailable(name) }
  /// ```
  ///
  /// A new element cancels the task in flight and its result, should it still come, is never
  /// delivered: only the latest element's result is (RxSwift's `flatMapLatest`, ReactiveSwift's
  /// `.latest`).
  ///
  /// The property is ``AsyncPhase/running`` while work is in flight, then the last finished
  /// work's value or error. The work runs in a task of its own, off the main actor unless
  /// `work` is `@MainActor`. When the property is no longer observed (it, its subscriptions and
  /// what is derived from it are released), the work in flight is cancelled.
  ///
  /// > Important: Async work never delivers late (rule 15 of the contract): an error is a
  /// > phase, never the end of the property, and a superseded or unobserved task is cancelled
  /// > and its result dropped.
  ///
  /// - Parameters:
  ///   - attempts: How many times `work` is tried for one value while it throws (the first try
  ///     counts; a cancelled try is not repeated).
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - work: The work for one value.
  /// - Returns: The phase of the work, starting ``AsyncPhase/running``.
  @inlinable
  public func flatMapLatest<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Value) async throws -> Output
  ) -> Property<AsyncPhase<Output>> {
    _async(.latest, attempts: attempts, file: file, line: line, work)
  }

}
