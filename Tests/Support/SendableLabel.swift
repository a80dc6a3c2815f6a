import InvalidatingCore

/// A label that is safe to set from any thread, the kind of object the any-thread
/// `bind(to: object, keyPath)` accepts.
public final class SendableLabel: @unchecked Sendable {
  // Safe: `storedText` is read and written only while `lock` is held.
  private let lock = Lock()
  private var storedText = ""

  /// Creates an empty label.
  public init() {}

  /// The label's text.
  public var text: String {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storedText
    }
    set {
      lock.lock()
      storedText = newValue
      lock.unlock()
    }
  }
}
