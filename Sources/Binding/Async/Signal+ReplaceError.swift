import InvalidatingCore

extension Signal {
  /// A signal of the values of this signal of results, with `replacement` in place of each
  /// error.
  ///
  /// ```swift
  /// let results = query.changes
  ///   .flatMapLatest(attempts: 3) { text in try await api.search(text) }
  ///   .replaceError(with: [])   // tried three times, then an empty list; the next query runs
  /// ```
  ///
  /// The error does not end anything: the next event is handled as any other (RxSwift's
  /// `catchAndReturn` inside a `flatMapLatest`).
  ///
  /// - Parameters:
  ///   - replacement: The value delivered for an error.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  /// - Returns: A signal of the values, one per result.
  /// - Complexity: O(1) per event.
  public func replaceError<Success: Sendable, Failure>(
    with replacement: Success, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<Success> where Element == Result<Success, Failure> {
    replaceError(file: file, line: line) { _ in replacement }
  }

  /// A signal of the values of this signal of results, with what `handle` makes of each
  /// error in its place.
  ///
  /// ```swift
  /// let results = searches.replaceError { error in
  ///   log.warning("search failed: \(error)")
  ///   return []
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - handle: Called once per error, on the delivering thread: the value to deliver.
  /// - Returns: A signal of the values, one per result.
  /// - Complexity: O(1) per event, plus `handle`.
  public func replaceError<Success, Failure>(
    file: StaticString = #fileID, line: UInt = #line,
    _ handle: @escaping @Sendable (Failure) -> Success
  ) -> Signal<Success> where Element == Result<Success, Failure> {
    map(file: file, line: line) { result in
      switch result {
      case .success(let value): value
      case .failure(let error): handle(error)
      }
    }
  }
}
