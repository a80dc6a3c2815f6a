import Invalidating

/// What the dashboard's views were asked to do and did: every invalidation request that reached
/// a view, and every render, in order.
///
/// The views report to it from their overrides of `setNeedsUpdateProperties()`,
/// `setNeedsLayout()`, `setNeedsDisplay()`, `invalidateIntrinsicContentSize()` and `render()`,
/// so it counts the requests that reached them: a tracked pass's, once per batch that changed
/// what it read, and an invalidating property's, once per change of its value.
@MainActor
public final class InvalidationLog {
  /// One entry of the log.
  public struct Entry: Hashable, Sendable, CustomStringConvertible {
    /// What happened: `properties`, `layout`, `display` or `intrinsicContentSize` for a
    /// request, `render` for a display pass.
    public var event: String
    /// The name of the view it happened to.
    public var view: String

    /// `"<event> <view>"`.
    public var description: String { "\(event) \(view)" }
  }

  /// Everything logged since the log was created or last cleared, oldest first.
  public private(set) var entries: [Entry] = []
  /// How many times each event was logged since the log was created, clearing included.
  public private(set) var totals: [String: Int] = [:]

  /// Creates an empty log.
  public init() {}

  /// Records that `event` happened to the view named `view`.
  public func record(_ event: String, _ view: String) {
    entries.append(Entry(event: event, view: view))
    totals[event, default: 0] += 1
  }

  /// The names of the views that rendered since the log was last cleared, in order.
  public var renders: [String] { entries.filter { $0.event == "render" }.map(\.view) }

  /// Forgets the entries; `totals` keeps counting.
  public func removeAll() {
    entries.removeAll()
  }
}
