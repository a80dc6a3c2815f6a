import InvalidatingCore

/// A thread-safe recording sink that an async test can wait on: `waitForCount(_:)` returns
/// once that many values have arrived, so tests of asynchronous delivery need no sleeps.
///
/// ```swift
/// let seen = WaitingRecorder<Int>()
/// let token = property.observe(on: queue, seen.sink)
/// relay.accept(1)
/// await seen.waitForCount(2)
/// #expect(seen.values == [0, 1])
/// ```
public final class WaitingRecorder<Value>: @unchecked Sendable {
  // Safe: every field is read and written only while `lock` is held.
  private let lock = Lock()
  private var recorded: [Value] = []
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  /// Creates an empty recorder.
  public init() {}

  /// The values recorded so far, oldest first.
  public var values: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  /// Records `value` and resumes the waiters it satisfies.
  public func record(_ value: Value) {
    lock.lock()
    recorded.append(value)
    let count = recorded.count
    var ready: [CheckedContinuation<Void, Never>] = []
    waiters.removeAll { waiter in
      guard waiter.count <= count else { return false }
      ready.append(waiter.continuation)
      return true
    }
    lock.unlock()
    for continuation in ready { continuation.resume() }
  }

  /// A sink that records into this recorder.
  public var sink: @Sendable (Value) -> Void {
    { [self] value in record(value) }
  }

  /// Returns once at least `count` values have been recorded.
  public func waitForCount(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      lock.lock()
      if recorded.count >= count {
        lock.unlock()
        continuation.resume()
        return
      }
      waiters.append((count, continuation))
      lock.unlock()
    }
  }
}
