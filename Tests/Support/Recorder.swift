import Synchronization

/// A thread-safe list of what a sink received, in order.
///
/// ```swift
/// let seen = Recorder<Int>()
/// let token = property.subscribe(seen.sink)
/// #expect(seen.values == [0, 1])
/// ```
public final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  /// Creates an empty recorder.
  public init() {}

  /// A sink that appends each value it receives.
  public var sink: @Sendable (Value) -> Void {
    { value in self.record(value) }
  }

  /// Appends `value`.
  public func record(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  /// Everything received so far, oldest first.
  public var values: [Value] { storage.withLock { $0 } }

  /// How many values were received.
  public var count: Int { storage.withLock { $0.count } }

  /// The most recent value, if any.
  public var last: Value? { storage.withLock { $0.last } }

  /// Forgets everything received so far.
  public func removeAll() {
    storage.withLock { $0.removeAll() }
  }
}

/// A weak reference, to prove an object was freed.
public struct Weak<Object: AnyObject> {
  /// The object, or `nil` once it was freed.
  public weak var object: Object?

  /// Refers weakly to `object`.
  public init(_ object: Object?) { self.object = object }
}
