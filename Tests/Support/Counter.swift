import Synchronization

/// A thread-safe count that `@Sendable` computations and sinks can bump.
///
/// ```swift
/// let runs = Counter()
/// let doubled = Property<Int> { runs.bump(); return a.value * 2 }
/// #expect(runs.value == 1)
/// ```
public final class Counter: Sendable {
  private let count = Mutex(0)

  /// Creates a count of zero.
  public init() {}

  /// Adds one.
  public func bump() { count.withLock { $0 += 1 } }

  /// The count so far.
  public var value: Int { count.withLock { $0 } }

  /// Sets the count back to zero.
  public func reset() { count.withLock { $0 = 0 } }
}
