/// Records why things changed: each invalidation, each view pass and, for a property you
/// follow, each change, with every chain of causes back to the writes that started it, where
/// they were made and the batch they were made in.
///
/// The quickest way is to trace a block of code:
///
/// ```swift
/// let records = Tracer.record {
///   model.increment()
///   renderLoop.tick()
/// }
/// for record in records { print(record) }
/// // BadgeView.layout ← BadgeView.text ← count.map ← count (written at CounterViewModel.swift:12)
/// // BadgeView.layoutSubviews() ← BadgeView.layout ← BadgeView.text ← count.map ← …
/// ```
///
/// A tracer can also run for as long as you like, and hand each record over as it is made:
///
/// ```swift
/// let tracer = Tracer(.object(badge)) { record in print(record) }
/// tracer.start()
/// // ... later
/// tracer.stop()
/// ```
///
/// Nodes are named after where they were made (`BehaviorRelay(CounterViewModel.swift:4)`,
/// `count.map`) unless you name them: `BehaviorRelay(0).named("count")`. A tracer's
/// ``graphviz(title:)`` draws the graph it saw, the last change highlighted.
///
/// **What is traced.** Everything that happens while a tracer records, on every thread: the
/// writes (`accept`, `modify`, a relay's events, an invalidating property's set), their
/// delivery through derived values and computed properties, what sinks do (a binding's set of
/// a view property, a write of another relay), invalidations, and the passes of
/// `HeadlessView`s and of views that run their passes through an `InvalidationTracker`. A
/// change written before tracing started shows as such. On Apple platforms, a `UIView`'s or
/// `NSView`'s own passes are not seen unless they run through an `InvalidationTracker`; its
/// invalidations are.
///
/// **Cost.** While no tracer records, each write, set and invalidation tests one process-wide
/// flag and goes its usual way (see <doc:DebuggingInvalidations> for the measurements). While
/// one does, every delivery builds its chains and every record is handed to each tracer:
/// trace to debug, not in production.
///
/// > Important: `onRecord` runs on the thread that made the record, inside the engine's
/// > delivery, like a sink: keep it short, and do not write properties from it.
public final class Tracer: @unchecked Sendable {
  // Safe: `kept` and `isRecordingStorage` are only touched while `lock` is held; `filter` and
  // `onRecord` are immutable.

  /// Which records this tracer keeps.
  public let filter: TraceFilter
  private let onRecord: (@Sendable (TraceRecord) -> Void)?
  private let lock = Lock()
  private var kept: [TraceRecord] = []
  private var isRecordingStorage = false

  /// How many records a tracer keeps: the newest ones.
  public static let recordLimit = 10_000

  /// Creates a tracer that keeps the records `filter` takes and gives each to `onRecord`; it
  /// records once started.
  ///
  /// - Parameters:
  ///   - filter: Which records to keep: everything (the default), those of one object, or
  ///     those of one property.
  ///   - onRecord: Called with each record as it is made, on the thread that makes it.
  public init(
    _ filter: TraceFilter = .everything, onRecord: (@Sendable (TraceRecord) -> Void)? = nil
  ) {
    self.filter = filter
    self.onRecord = onRecord
  }

  /// Starts recording. Recording until ``stop()``, the tracer stays alive.
  public func start() {
    lock.lock()
    isRecordingStorage = true
    lock.unlock()
    TraceState.shared.start(self)
  }

  /// Stops recording; the records stay.
  public func stop() {
    TraceState.shared.stop(self)
    lock.lock()
    isRecordingStorage = false
    lock.unlock()
  }

  /// Whether the tracer is recording.
  public var isRecording: Bool {
    lock.lock()
    defer { lock.unlock() }
    return isRecordingStorage
  }

  /// The records kept, oldest first: at most ``recordLimit``, the newest.
  public var records: [TraceRecord] {
    lock.lock()
    defer { lock.unlock() }
    return kept
  }

  /// Returns the records kept and forgets them: what happened since the last call.
  ///
  /// - Returns: The records, oldest first.
  public func takeRecords() -> [TraceRecord] {
    lock.lock()
    defer { lock.unlock() }
    let taken = kept
    kept = []
    return taken
  }

  /// Forgets the records kept.
  public func removeAllRecords() {
    lock.lock()
    kept = []
    lock.unlock()
  }

  /// Records what `body` causes, on every thread, while it runs.
  ///
  /// ```swift
  /// let records = Tracer.record(.object(badge)) { model.increment() }
  /// ```
  ///
  /// - Parameters:
  ///   - filter: Which records to keep.
  ///   - body: The code to trace.
  /// - Returns: The records, oldest first.
  public static func record(
    _ filter: TraceFilter = .everything, _ body: () throws -> Void
  ) rethrows -> [TraceRecord] {
    let tracer = Tracer(filter)
    tracer.start()
    defer { tracer.stop() }
    try body()
    return tracer.records
  }

  /// Takes a record made while recording.
  func receive(_ record: TraceRecord) {
    lock.lock()
    if kept.count >= Self.recordLimit { kept.removeFirst(kept.count / 4) }
    kept.append(record)
    lock.unlock()
    onRecord?(record)
  }
}

/// Which records a ``Tracer`` keeps.
public struct TraceFilter: Sendable {
  enum Kind: Sendable {
    case everything
    case object(ObjectIdentifier)
    case node(ObjectIdentifier)
  }

  let kind: Kind

  /// Every record: every invalidation and pass.
  public static var everything: TraceFilter { TraceFilter(kind: .everything) }

  /// The invalidations and passes of `object`: a view, or another invalidatable object.
  ///
  /// - Parameter object: The object to follow. The filter does not keep it alive.
  /// - Returns: The filter.
  public static func object(_ object: AnyObject) -> TraceFilter {
    TraceFilter(kind: .object(ObjectIdentifier(object)))
  }

  /// Each change of `property`, and every invalidation and pass that one of its changes
  /// caused.
  ///
  /// - Parameter property: The property to follow. The filter does not keep it alive.
  /// - Returns: The filter.
  public static func property<Value>(_ property: Property<Value>) -> TraceFilter {
    node(property.node)
  }

  /// `property(_:)` of the property or signal whose node is `node`.
  package static func node(_ node: AnyNode) -> TraceFilter {
    TraceFilter(kind: .node(ObjectIdentifier(node)))
  }

  /// The node whose changes a tracer with this filter records.
  var watchedNode: ObjectIdentifier? {
    if case .node(let id) = kind { return id }
    return nil
  }

  func accepts(_ record: TraceRecord) -> Bool {
    switch kind {
    case .everything:
      return record.event != .change
    case .object(let id):
      return record.subjectID == id
    case .node(let id):
      if record.subjectID == id { return true }
      return record.cause.allLinks().contains { link in
        switch link.step {
        case .write(let node, _, _), .change(let node), .untraced(let node): node.id == id
        default: false
        }
      }
    }
  }
}
