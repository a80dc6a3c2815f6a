#if canImport(Observation)
  import Observation
#endif

/// Where the `Observation` module exists, a tracked run (a computed property's computation, a
/// view's pass) also follows the `@Observable` objects it reads, as Apple's automatic
/// observation tracking does.
///
/// Observation reports a change once, before the object stores the new value (`willSet`), on
/// the writer's thread. A view's pass only needs to be requested then: it runs later and reads
/// the new value. A computed property must compute after the store, so its change is written
/// to a trigger source it depends on: at once inside a `batch` (the batch delivers it at its
/// end, after the store), otherwise from a main-actor task, one turn later.
enum ObservableReads {
  /// Runs `body`; if it read properties of `@Observable` objects, calls `didRead` once after
  /// it (on this thread, before returning), and `onChange` once when the first of them is
  /// about to change.
  @inline(__always)
  static func track(
    _ body: () -> Void, didRead: () -> Void, onChange: @escaping @Sendable () -> Void
  ) {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        // The handler is an autoclosure, evaluated only when `body` read something observable:
        // that is how a run learns that it did.
        withObservationTracking(body, onChange: registered(didRead, onChange))
        return
      }
    #endif
    body()
  }

  @inline(__always)
  private static func registered(
    _ didRead: () -> Void, _ onChange: @escaping @Sendable () -> Void
  ) -> @Sendable () -> Void {
    didRead()
    return onChange
  }
}

/// The source a computed property depends on while its computation reads `@Observable`
/// objects: each change Observation reports is a write to it (see `ObservableReads`).
@usableFromInline
final class ObservationTrigger: @unchecked Sendable {
  // Safe: `made` is only touched while `lock` is held; the node is Sendable.
  private let lock = Lock()
  private var made: SourceNode<UInt64>?

  @usableFromInline init() {}

  /// Runs `body`, a computation, following the `@Observable` objects it reads: the trigger's
  /// source becomes a dependency of the tracked run, and their changes write it.
  @usableFromInline
  func track(_ body: () -> Void) {
    ObservableReads.track(
      body, didRead: { ThreadContext.current.activeTracker?.record(node) },
      onChange: { [self] in fire() })
  }

  /// The trigger's source, made on first use.
  var node: SourceNode<UInt64> {
    lock.lock()
    defer { lock.unlock() }
    if let made { return made }
    let node = SourceNode<UInt64>(0, origin: .kind("@Observable reads"))
    made = node
    return node
  }

  /// Records that an observed object is about to change: writes the trigger inside a batch
  /// (delivered at its end, after the object stored the value), else from a main-actor task.
  func fire() {
    if ThreadContext.current.batchDepth > 0 {
      write()
    } else {
      Task { @MainActor [self] in write() }
    }
  }

  private func write() {
    let node = node
    node.write(node.currentValue() &+ 1, file: #fileID, line: #line)
  }
}
