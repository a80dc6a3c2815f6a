import Foundation

/// A thread-safe count that `@Sendable` computations and sinks can bump.
///
/// ```swift
/// let runs = Counter()
/// let doubled = Property<Int> { runs.bump(); return a.value * 2 }
/// #expect(runs.value == 1)
/// ```
///
/// Behind an `NSLock` (a pthread mutex, which ThreadSanitizer understands), not `Mutex`, whose
/// accesses it reported as races from sinks on several threads.
public final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// Creates a count of zero.
  public init() {}

  /// Adds one.
  public func bump() { lock.withLock { count += 1 } }

  /// The count so far.
  public var value: Int { lock.withLock { count } }

  /// Sets the count back to zero.
  public func reset() { lock.withLock { count = 0 } }
}
