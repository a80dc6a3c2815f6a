import Synchronization

/// The tasks the package starts (the time operators' waits, async work, actions, hops to the
/// main actor and to actors), followed so that a test clock can tell when the work a step of a
/// test caused is done: InvalidatingTesting's `TestClock.advance(by:)` returns once every such
/// task has finished or waits on a test clock.
///
/// Off until a test clock is made: until then starting a task costs one atomic load more than
/// `Task { }` (a load and an uncontended lock before macOS 15 and iOS 18). Once on, each task is
/// a ``WorkUnit`` of a ``WorkScope``: the scope of the unit whose code started it (a task-local
/// value, so work started by work stays in its scope), or, started from other code, the scope
/// of the task that code runs in (a test's task), or the scope of code outside any task. A
/// scope counts its units that can run: started and not finished, and not asleep on a test
/// clock.
package enum WorkTracking {
  /// Guards `_isEnabled`, the scopes' counts and waiters, and `scopes`.
  static let lock = Lock()
  /// Safe: read and written only while `lock` is held.
  nonisolated(unsafe) static var _isEnabled = false
  /// Safe: read and written only while `lock` is held. The root scopes by their task (the
  /// hash of `UnsafeCurrentTask`; 0 for code outside any task), while they have units.
  nonisolated(unsafe) static var scopes: [Int: WorkScope] = [:]

  /// The unit whose task is running, if it is one the package started while tracking was on.
  @TaskLocal package static var current: WorkUnit?

  /// Turns tracking on, for the rest of the process (a test clock does, when it is made).
  package static func enable() {
    lock.lock()
    _isEnabled = true
    lock.unlock()
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      _TrackingSwitch.shared.isOn.store(true, ordering: .releasing)
    }
  }

  /// Whether tracking is on: a lock-free read where the standard library has atomics, so that
  /// threads starting tasks share no lock while no test clock exists.
  static var isEnabled: Bool {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      return _TrackingSwitch.shared.isOn.load(ordering: .acquiring)
    }
    lock.lock()
    defer { lock.unlock() }
    return _isEnabled
  }

  /// A new unit, counted as running in the current scope; `nil` while tracking is off.
  static func beginUnit() -> WorkUnit? {
    guard isEnabled else { return nil }
    let parent = current
    lock.lock()
    defer { lock.unlock() }
    let scope = parent?.scope ?? rootScopeLocked()
    scope.running += 1
    return WorkUnit(scope: scope)
  }

  /// The scope of the code running now: its unit's, or its task's. Call from the code whose
  /// work is to be waited for (a test's task).
  package static func currentScope() -> WorkScope {
    if let unit = current { return unit.scope }
    lock.lock()
    defer { lock.unlock() }
    return rootScopeLocked()
  }

  /// The scope of the current task (or of code outside any task). Lock.
  private static func rootScopeLocked() -> WorkScope {
    let key = withUnsafeCurrentTask { task in task.map { $0.hashValue } ?? 0 }
    if let scope = scopes[key] { return scope }
    let scope = WorkScope(key: key)
    scopes[key] = scope
    return scope
  }
}

/// A task the package started while work tracking was on (see ``WorkTracking``).
package final class WorkUnit: Sendable {
  /// The scope that counts it.
  package let scope: WorkScope

  init(scope: WorkScope) {
    self.scope = scope
  }

  /// The task is done: it no longer counts.
  func end() {
    scope.adjust(by: -1)
  }
}

/// Work a test waits for together (see ``WorkTracking``).
package final class WorkScope: @unchecked Sendable {
  // Safe: the mutable fields are read and written only while `WorkTracking.lock` is held.
  let key: Int
  /// The units that can run: started, not finished, not asleep on a test clock.
  var running = 0
  /// The units asleep on a test clock: they count again once woken.
  var sleeping = 0
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []

  init(key: Int) {
    self.key = key
  }

  /// A unit of this scope went to sleep on a test clock: it no longer counts until it wakes.
  package func unitSleeps() {
    adjust(by: -1, sleeping: 1)
  }

  /// A unit of this scope asleep on a test clock wakes (the clock reached its deadline, or its
  /// task was cancelled): call before resuming it.
  package func unitWakes() {
    adjust(by: 1, sleeping: -1)
  }

  /// Whether no unit of this scope can run now.
  package var isIdle: Bool {
    WorkTracking.lock.lock()
    defer { WorkTracking.lock.unlock() }
    return running == 0
  }

  /// Returns once no unit of this scope can run (each has finished or sleeps on a test clock).
  package func waitUntilIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      WorkTracking.lock.lock()
      guard running > 0 else {
        WorkTracking.lock.unlock()
        continuation.resume()
        return
      }
      idleWaiters.append(continuation)
      WorkTracking.lock.unlock()
    }
  }

  /// Counts `change` more units running and `asleep` more asleep; wakes the waiters once
  /// none runs.
  func adjust(by change: Int, sleeping asleep: Int = 0) {
    WorkTracking.lock.lock()
    running += change
    sleeping += asleep
    var idle: [CheckedContinuation<Void, Never>] = []
    if running == 0 {
      swap(&idle, &idleWaiters)
      // A root scope with no unit left is forgotten: its task may be gone, and a new unit
      // started from it makes the scope again. (One with a unit asleep is kept: a
      // cancellation may wake it, for the test's next `advance` to wait for.)
      if sleeping == 0, WorkTracking.scopes[key] === self { WorkTracking.scopes[key] = nil }
    }
    WorkTracking.lock.unlock()
    for waiter in idle { waiter.resume() }
  }
}

/// Starts `operation` in a task, as `Task { }` does, followed by work tracking when it is on.
/// (Not generic: called from the inlinable operators' code, it needs no specializing.)
@usableFromInline @discardableResult
package func _startTask(
  _ operation: @escaping @Sendable () async -> Void
) -> Task<Void, Never> {
  // A closure literal, not `Task(operation: operation)`: passing the closure through would
  // add two reabstraction thunks, each an async frame, to every task.
  guard let unit = WorkTracking.beginUnit() else { return Task { await operation() } }
  return Task {
    await WorkTracking.$current.withValue(unit) { await operation() }
    unit.end()
  }
}

/// Starts `operation` in a main-actor task (a hop to the main actor), followed by work
/// tracking when it is on.
package func _startMainActorTask(_ operation: @escaping @MainActor @Sendable () -> Void) {
  guard let unit = WorkTracking.beginUnit() else {
    Task { @MainActor in operation() }
    return
  }
  Task { @MainActor in
    WorkTracking.$current.withValue(unit) { operation() }
    unit.end()
  }
}

/// Whether work tracking is on, as an atomic flag (see `WorkTracking.isEnabled`).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class _TrackingSwitch: Sendable {
  static let shared = _TrackingSwitch()
  let isOn = Atomic<Bool>(false)
}
