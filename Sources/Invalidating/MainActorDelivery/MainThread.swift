#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Tells whether the calling thread is the main thread, the only thread the main actor runs on.
///
/// The engine delivers a change on the thread that wrote it. A view binding uses this check to
/// assign at once, inside the engine's delivery (so that batches deduplicate the view's
/// invalidations), when that thread is the main one, and to hop to the main actor otherwise.
enum _MainThread {
  #if canImport(Darwin)
    /// Whether the caller runs on the main thread.
    static var isCurrent: Bool { pthread_main_np() != 0 }

    /// Nothing to record: Darwin knows its main thread.
    @MainActor static func record() {}
  #else
    /// The main thread, recorded from main-actor code before the first binding subscribes.
    private static let recorded = _RecordedThread()

    /// Whether the caller runs on the main thread.
    static var isCurrent: Bool { recorded.isCurrent }

    /// Records the calling thread as the main thread. Main-actor code runs on the main thread,
    /// so any main-actor caller records the right one.
    @MainActor static func record() { recorded.recordIfNeeded() }
  #endif
}

#if !canImport(Darwin)
  import InvalidatingCore

  /// The identity of the main thread, recorded once.
  final class _RecordedThread: @unchecked Sendable {
    // Safe: `thread` is written once, under `lock`, before `isRecorded` is set under it; every
    // read takes the lock.
    private let lock = Lock()
    private var thread = pthread_self()
    private var isRecorded = false

    func recordIfNeeded() {
      lock.lock()
      if !isRecorded {
        thread = pthread_self()
        isRecorded = true
      }
      lock.unlock()
    }

    var isCurrent: Bool {
      lock.lock()
      defer { lock.unlock() }
      return isRecorded && pthread_equal(thread, pthread_self()) != 0
    }
  }
#endif
