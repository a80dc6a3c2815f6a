import InvalidatingCore

extension Signal {
  /// The values of this signal of results: its successes, without the errors.
  ///
  /// ```swift
  /// let saved = edits.concatMap { edit in try await store.save(edit) }
  /// let savedCount = saved.successes().scan(into: 0) { count, _ in count += 1 }
  /// let lastError = Property(initial: nil, then: saved.failures().map { Optional($0) })
  /// ```
  ///
  /// - Complexity: O(1) per event.
  public func successes<Success, Failure>() -> Signal<Success>
  where Element == Result<Success, Failure> {
    compactMap { try? $0.get() }
  }

  /// The errors of this signal of results, without the values: what a screen shows as its
  /// error message, while the work goes on with the next event.
  ///
  /// - Complexity: O(1) per event.
  public func failures<Success, Failure>() -> Signal<Failure>
  where Element == Result<Success, Failure> {
    compactMap { result in
      guard case .failure(let error) = result else { return nil }
      return error
    }
  }
}
