import InvalidatingCore

extension Signal where Element: Sendable {
  /// Runs `work` for each event, all of them concurrently: a signal of the results.
  ///
  /// ```swift
  /// let uploaded = photoPicked.flatMap { photo in try await uploader.upload(photo) }
  /// ```
  ///
  /// Every element's work runs, concurrently, and each result is delivered as it comes, in the
  /// order the work finishes (RxSwift's `flatMap`, ReactiveSwift's `.merge`).
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
  public func flatMap<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async throws -> Output
  ) -> Signal<Result<Output, any Error>> {
    _async(
      .merge, origin: .made("flatMap", file: file, line: line),
      work: _attempting(attempts, work)
    ) { update in
      guard case .finished(let result, _) = update else { return nil }
      return result
    }
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
  /// - Returns: A signal of the results.
  @inlinable
  public func flatMap<Output: Sendable>(
    file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Element) async -> Output
  ) -> Signal<Output> {
    _async(.merge, origin: .made("flatMap", file: file, line: line)) { element in
      .success(await work(element))
    } update: { update in
      guard case .finished(.success(let output), _) = update else { return nil }
      return output
    }
  }
}

extension Property where Value: Sendable {
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
  public func flatMap<Output: Sendable>(
    attempts: Int = 1, file: StaticString = #fileID, line: UInt = #line,
    _ work: @escaping @Sendable (Value) async throws -> Output
  ) -> Property<AsyncPhase<Output>> {
    _async(
      .merge, origin: .made("flatMap", file: file, line: line),
      work: _attempting(attempts, work))
  }
}
