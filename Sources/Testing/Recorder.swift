import InvalidatingBinding
import InvalidatingCore

/// What a ``Recorder`` saw: a value and the virtual time it arrived at.
public struct Recorded<Value> {
  /// The time on the recorder's ``TestClock`` since the clock was made (`.zero` without a
  /// clock).
  public var time: Duration
  /// The value or event.
  public var value: Value

  /// A value seen at `time`, as a test expects it.
  ///
  /// ```swift
  /// #expect(recorded.records == [Recorded(.zero, []), Recorded(.milliseconds(300), ["swift"])])
  /// ```
  ///
  /// - Parameters:
  ///   - time: The time since the clock was made.
  ///   - value: The value.
  public init(_ time: Duration, _ value: Value) {
    self.time = time
    self.value = value
  }
}

extension Recorded: Equatable where Value: Equatable {}
extension Recorded: Sendable where Value: Sendable {}

/// Records the values of a property or the events of a signal, with the virtual time each
/// arrived at, for a test to compare (RxTest's `TestableObserver`).
///
/// ```swift
/// let clock = TestClock()
/// let recorded = Recorder(model.results, clock: clock)
/// model.query.accept("swift")
/// await clock.advance(by: .milliseconds(300))
/// #expect(recorded.values == [[], ["swift-log"]])
/// #expect(recorded.records.map(\.time) == [.zero, .milliseconds(300)])
/// ```
///
/// A property's recorder starts with its current value; a signal's, with the events that
/// follow. It subscribes when it is made and stays subscribed for as long as it lives.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class Recorder<Value: Sendable>: @unchecked Sendable {
  // Safe: `recorded`, `completed` and `token` are only touched while `lock` is held; `clock`
  // is immutable and thread-safe.
  private let lock = Lock()
  private var recorded: [Recorded<Value>] = []
  private var completed = false
  private var token: SubscriptionToken?
  private let clock: TestClock?

  private init(clock: TestClock?) {
    self.clock = clock
  }

  /// Records `property`'s current value, then each change.
  ///
  /// - Parameters:
  ///   - property: The property to record.
  ///   - clock: The clock whose time each record gets; `nil`: `.zero` for all.
  public convenience init(_ property: Property<Value>, clock: TestClock? = nil) {
    self.init(clock: clock)
    let token = property.subscribe { [weak self] in
      self?.record($0)
    } onCompleted: { [weak self] in
      self?.complete()
    }
    keep(token)
  }

  /// Records each event of `signal` from now on.
  ///
  /// - Parameters:
  ///   - signal: The signal to record.
  ///   - clock: The clock whose time each record gets; `nil`: `.zero` for all.
  public convenience init(_ signal: Signal<Value>, clock: TestClock? = nil) {
    self.init(clock: clock)
    let token = signal.subscribe { [weak self] in
      self?.record($0)
    } onCompleted: { [weak self] in
      self?.complete()
    }
    keep(token)
  }

  /// The values recorded, oldest first.
  public var values: [Value] { records.map(\.value) }

  /// The values recorded with their times, oldest first.
  public var records: [Recorded<Value>] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  /// Whether the property or signal has ended (its relays were released).
  public var isCompleted: Bool {
    lock.lock()
    defer { lock.unlock() }
    return completed
  }

  /// Forgets what was recorded so far: a test that checks one step at a time.
  public func removeAll() {
    lock.lock()
    recorded.removeAll()
    lock.unlock()
  }

  private func record(_ value: Value) {
    let time = clock?.elapsed ?? .zero
    lock.lock()
    recorded.append(Recorded(time, value))
    lock.unlock()
  }

  private func complete() {
    lock.lock()
    completed = true
    lock.unlock()
  }

  private func keep(_ token: SubscriptionToken) {
    lock.lock()
    self.token = token
    lock.unlock()
  }
}
