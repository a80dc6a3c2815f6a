import InvalidatingCore

/// Watches objects through weak references, so a test can state which of them were freed.
///
/// ```swift
/// let tracker = LifetimeTracker()
/// do {
///   let model = ViewModel()
///   tracker.track(model, "model")
/// }
/// #expect(tracker.alive.isEmpty)
/// ```
public final class LifetimeTracker: @unchecked Sendable {
  // Safe: `entries` is read and written only while `lock` is held.
  private struct Entry {
    let name: String
    weak var object: AnyObject?
  }

  private let lock = Lock()
  private var entries: [Entry] = []

  /// Creates a tracker that watches nothing yet.
  public init() {}

  /// Starts watching `object` under `name`, without keeping it alive.
  public func track(_ object: AnyObject, _ name: String) {
    lock.lock()
    entries.append(Entry(name: name, object: object))
    lock.unlock()
  }

  /// The names of the watched objects that are still alive, in tracking order.
  public var alive: [String] {
    lock.lock()
    defer { lock.unlock() }
    return entries.filter { $0.object != nil }.map(\.name)
  }
}
