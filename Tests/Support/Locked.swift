import Foundation

/// A value behind an `NSLock`, for state that test threads share: the shape of the standard
/// library's `Mutex`, whose futex ThreadSanitizer does not see on Linux (it reports the
/// accesses the mutex orders as races), where it sees `NSLock`'s pthread mutex.
public final class Locked<Value>: @unchecked Sendable {
  // Safe: `value` is only touched inside `withLock`, holding `lock`.
  private let lock = NSLock()
  private var value: Value

  /// A lock around `value`.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, holding the lock.
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
