import InvalidatingCore

/// Counts the async calls in flight that it tracks: a view model's spinner over several
/// requests (RxExample's `ActivityIndicator`).
///
/// ```swift
/// let activity = ActivityTracker()
/// let isLoading: Property<Bool> = activity.isActive
/// let user = try await activity.track { try await api.user(id) }
/// ```
///
/// A call counts from the moment `track` starts it until it returns, throws or is cancelled,
/// whatever thread or actor it runs on; calls from many tasks at once are counted exactly
/// (each start and end is one atomic update of the count). Track the work of an async
/// operator inside its closure:
/// `query.changes.flatMapLatest { text in try await activity.track { try await api.search(text) } }`.
public final class ActivityTracker: Sendable {
  private let relay = BehaviorRelay(0)

  /// How many tracked calls are in flight.
  public let count: Property<Int>
  /// Whether any tracked call is in flight. It changes only when that does.
  public let isActive: Property<Bool>

  /// Creates a tracker with nothing in flight.
  public init() {
    count = relay.asProperty()
    isActive = relay.map { $0 > 0 }.removeDuplicates()
  }

  /// Runs `work`, counted as in flight until it returns or throws.
  ///
  /// - Parameters:
  ///   - isolation: The actor `work` runs on: the caller's.
  ///   - work: The call to track.
  /// - Returns: What `work` returns.
  /// - Throws: What `work` throws.
  public func track<Output>(
    isolation: isolated (any Actor)? = #isolation,
    _ work: () async throws -> sending Output
  ) async rethrows -> sending Output {
    relay.modify { $0 += 1 }
    defer { relay.modify { $0 -= 1 } }
    return try await work()
  }
}
