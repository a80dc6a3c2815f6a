#if canImport(Darwin)
  import Darwin
#else
  import Dispatch
#endif

/// Tells whether the caller runs on the main actor right now, without trapping.
///
/// The engine delivers a change on the thread that wrote it. A view binding uses this check to
/// assign at once, inside the engine's delivery (so that batches deduplicate the view's
/// invalidations), when the writer was main-actor code, and to hop to the main actor otherwise.
@usableFromInline
package enum _MainThread {
  #if canImport(Darwin)
    /// Whether the caller runs on the main thread, which is where the main actor runs.
    @usableFromInline package static var isCurrent: Bool { pthread_main_np() != 0 }

  #else
    /// A mark on the main dispatch queue. Elsewhere than on Darwin the main actor's jobs run on
    /// the main queue but not always on the process's main thread (once the main thread has
    /// handed the queue to dispatch's workers), so the queue, not the thread, is what to ask.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
      let key = DispatchSpecificKey<Bool>()
      DispatchQueue.main.setSpecific(key: key, value: true)
      return key
    }()

    /// Whether the caller runs on the main queue, which is where the main actor runs.
    @usableFromInline package static var isCurrent: Bool {
      DispatchQueue.getSpecific(key: mainQueueKey) == true
    }
  #endif
}
