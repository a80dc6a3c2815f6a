import Foundation

/// A thread-safe list of what a sink received, in order.
///
/// ```swift
/// let seen = Recorder<Int>()
/// let token = property.subscribe(seen.sink)
/// #expect(seen.values == [0, 1])
/// ```
public final class Recorder<Value: Sendable>: @unchecked Sendable {
  // Behind an `NSLock`, which ThreadSanitizer understands (it reported `Mutex` accesses from
  // sinks on several threads as races).
  private let lock = NSLock()
  private var recorded: [Value] = []

  /// Creates an empty recorder.
  public init() {}

  /// A sink that appends each value it receives.
  public var sink: @Sendable (Value) -> Void {
    { value in self.record(value) }
  }

  /// Appends `value`.
  public func record(_ value: Value) {
    lock.withLock { recorded.append(value) }
  }

  /// Everything received so far, oldest first.
  public var values: [Value] { lock.withLock { recorded } }

  /// How many values were received.
  public var count: Int { lock.withLock { recorded.count } }

  /// The most recent value, if any.
  public var last: Value? { lock.withLock { recorded.last } }

  /// Forgets everything received so far.
  public func removeAll() {
    lock.withLock { recorded.removeAll() }
  }
}

/// A weak reference, to prove an object was freed.
public struct Weak<Object: AnyObject> {
  /// The object, or `nil` once it was freed.
  public weak var object: Object?

  /// Refers weakly to `object`.
  public init(_ object: Object?) { self.object = object }
}
