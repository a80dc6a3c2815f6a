#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The hand-written baselines: what an app writes without a library.
//
// `ClosureRelay` is the thread-safe version (a relay that may be written from any thread
// needs at least one lock: ours are `Sendable`), and is the baseline every ratio uses.
// `BareRelay` drops the lock; its figure is reported in the notes as the floor.

/// A subscriber's closure and its identifier, as the hand-written relays keep them.
///
/// A struct of its own, written for `Int`: a closure kept in a generic container directly (an
/// array of closures, or of tuples holding one) is stored in its most general form, which
/// wraps each closure in a reabstraction thunk (a 32-byte context on the heap per subscription,
/// and an extra call on every delivery). An app's concrete relay would not pay for that, so
/// the floor does not either.
struct SinkSlot {
  let id: Int
  let sink: (Int) -> Void
}

/// A value and an array of closures behind one `pthread_mutex_t`: set stores the value and
/// copies the array under the lock, then calls every closure outside it.
///
/// Written for `Int`, as an app would for its concrete type: a generic version would store
/// reabstracted closures and pay a thunk on every call.
final class ClosureRelay {
  typealias Value = Int

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value
  private var sinks: [SinkSlot] = []
  private var nextID = 0

  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Stores `value` and calls every sink with it.
  @inline(never)
  func accept(_ value: Value) {
    pthread_mutex_lock(mutex)
    self.value = value
    let sinks = self.sinks
    pthread_mutex_unlock(mutex)
    for entry in sinks { entry.sink(value) }
  }

  /// The current value.
  @inline(never)
  func read() -> Value {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return value
  }

  /// Adds `sink`, calls it with the current value, and returns the id that removes it.
  @inline(never)
  func subscribe(_ sink: @escaping (Value) -> Void) -> Int {
    pthread_mutex_lock(mutex)
    let id = nextID
    nextID += 1
    sinks.append(SinkSlot(id: id, sink: sink))
    let current = value
    pthread_mutex_unlock(mutex)
    sink(current)
    return id
  }

  /// Removes the sink `id`, searching from the newest.
  @inline(never)
  func cancel(_ id: Int) {
    pthread_mutex_lock(mutex)
    if let index = sinks.lastIndex(where: { $0.id == id }) { sinks.remove(at: index) }
    pthread_mutex_unlock(mutex)
  }
}

/// A value and an array of closures with no synchronization: the floor.
final class BareRelay {
  typealias Value = Int

  var value: Value
  var sinks: [SinkSlot] = []

  init(_ value: Value) {
    self.value = value
  }

  /// Adds `sink`.
  func append(_ sink: @escaping (Value) -> Void) {
    sinks.append(SinkSlot(id: sinks.count, sink: sink))
  }

  @inline(never)
  func accept(_ value: Value) {
    self.value = value
    for entry in sinks { entry.sink(value) }
  }

  @inline(never)
  func read() -> Value { value }
}
