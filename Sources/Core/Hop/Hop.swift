/// Carries what an engine sink receives to code that runs elsewhere (the main actor, a queue,
/// an actor), and runs it there: the one hop behind `drive`, `emit`, view bindings,
/// `observe(on:)`, view passes requested by tracked reads, and `@Observable` changes that a
/// computed property follows.
///
/// **What is kept.** With ``Policy/latest`` a value sent while an earlier one waits replaces
/// it: state whose handler depends only on the newest value (`drive`, `bind(to:)` of a
/// main-actor object, `observe(on:)`); a burst costs the target one call. With
/// ``Policy/everyInOrder`` every value waits its turn, first in, first out: events (`emit`),
/// and view bindings. A view binding assigns a view's property, which is a source itself (its
/// `$x`, and the traces and invalidations each assignment makes, with its cause): dropping
/// values there would drop changes that the view's own subscribers and traces are promised.
/// Its scheduled flushes run as one `batch`, so a burst still costs each view one invalidation
/// of each kind. A signal ("something changed", no value: a view pass to request, an
/// `@Observable` change) is a `Hop<Void>` with `.latest`.
///
/// **One flush at a time.** Values are run by a *flush* on the target: scheduled with
/// `schedule` when a value arrives and none is scheduled or running, or run at once when
/// `runsHere()` says the sender is on the target already (the main actor, inside the engine's
/// delivery, so that a batch's work runs with it). A flush runs what waits, including what
/// arrives while it runs, so calls follow the sends' order; a send that finds a flush running
/// on its own stack (the handler sent again) leaves the value to it, so the handler never runs
/// nested in itself, and two flushes never run at once, even on a concurrent queue. After
/// ``callsPerFlush`` rounds (each runs what waited when it began) a flush schedules the next
/// one instead, so a sender faster than the handler cannot hold the target for ever.
///
/// **Lifetime.** Scheduled flushes hold the hop weakly: once its owner (the engine's sink)
/// is gone, waiting values are dropped. ``complete()`` (the property completed, and the engine
/// let go of its sink) keeps the hop alive until what waits has run.
///
/// While a tracer records, each value carries the cause the sending thread had, and runs with
/// it (with all of them, as a group, for values that replaced one another).
package final class Hop<Value>: @unchecked Sendable {
  // Safe: every mutable field is only touched while `lock` is held; values move from the
  // sending thread to the target through them, as the engine itself moves values between
  // threads. The closures are immutable.

  /// What a hop keeps of the values sent while earlier ones wait.
  package enum Policy: Sendable {
    /// Only the newest: a value replaces the one waiting.
    case latest
    /// Every value, in the order sent.
    case everyInOrder
  }

  private let lock = Lock()
  private let policy: Policy
  /// What waits for the target, oldest first (one at most with `.latest`), and while a tracer
  /// records, the causes of what waits (with `.latest`, of every value it replaced too).
  private var pending: [Value] = []
  private var causes: [[Cause]] = []
  /// Whether a scheduled flush has not started yet, and whether a flush is running.
  private var isScheduled = false
  private var isRunning = false
  /// This hop, once completed and while values wait.
  private var keepAlive: Hop?
  private let schedule: @Sendable (_ flush: @escaping @Sendable () -> Void) -> Void
  private let runsHere: @Sendable () -> Bool
  private let groupsScheduledFlushes: Bool
  private let run: @Sendable (Value) -> Void

  /// How many rounds a flush runs at most before it schedules the next flush.
  package static var callsPerFlush: Int { 64 }

  /// Creates a hop.
  ///
  /// - Parameters:
  ///   - policy: What is kept of values sent while earlier ones wait.
  ///   - schedule: Runs its argument on the target, later. Called at most once per flush.
  ///   - runsHere: Whether the calling thread is on the target already: a value sent there is
  ///     run at once. `{ false }` for targets that are always reached by `schedule`.
  ///   - groupsScheduledFlushes: Whether a scheduled flush runs its values inside one `batch`
  ///     (a burst of bindings then costs each view one invalidation of each kind).
  ///   - run: Runs one value, on the target (inside a flush).
  package init(
    _ policy: Policy,
    schedule: @escaping @Sendable (_ flush: @escaping @Sendable () -> Void) -> Void,
    runsHere: @escaping @Sendable () -> Bool = { false },
    groupsScheduledFlushes: Bool = false,
    run: @escaping @Sendable (Value) -> Void
  ) {
    self.policy = policy
    self.schedule = schedule
    self.runsHere = runsHere
    self.groupsScheduledFlushes = groupsScheduledFlushes
    self.run = run
  }

  /// Sends `value` to the target: runs it now if the caller is on the target and no flush is
  /// running, else leaves it to the running flush or schedules one.
  package func send(_ value: Value) {
    let cause = Tracing.isOn ? ThreadContext.current.trace.cause : nil
    var replaced: [Value] = []
    defer { withExtendedLifetime(replaced) {} }  // released outside the lock
    lock.lock()
    switch policy {
    case .latest:
      swap(&replaced, &pending)
      pending.append(value)
      if let cause {
        if causes.isEmpty { causes = [[cause]] } else { causes[0].append(cause) }
      }
    case .everyInOrder:
      pending.append(value)
      if cause != nil || !causes.isEmpty {
        while causes.count < pending.count - 1 { causes.append([]) }
        causes.append(cause.map { [$0] } ?? [])
      }
    }
    if isRunning {
      lock.unlock()  // the running flush takes it
      return
    }
    if runsHere() {
      isRunning = true
      lock.unlock()
      flush(grouped: false)
      return
    }
    let mustSchedule = !isScheduled
    isScheduled = true
    lock.unlock()
    if mustSchedule { scheduleFlush() }
  }

  /// Runs, on the target, what waits now, if no flush is running: for a caller on the target
  /// that knows a value may have arrived (a subscriber whose first value another thread
  /// delivered).
  package func flushIfIdle() {
    lock.lock()
    guard !isRunning, !pending.isEmpty else {
      lock.unlock()
      return
    }
    isRunning = true
    lock.unlock()
    flush(grouped: false)
  }

  /// The source completed: its sink, the hop's owner, is let go, so the hop keeps itself alive
  /// until what waits has run.
  package func complete() {
    lock.lock()
    guard !pending.isEmpty else {
      lock.unlock()
      return
    }
    keepAlive = self
    let mustSchedule = !isScheduled && !isRunning
    isScheduled = true
    lock.unlock()
    if mustSchedule { scheduleFlush() }
  }

  private func scheduleFlush() {
    schedule { [weak self] in self?.scheduledFlush() }
  }

  /// A flush that `schedule` runs on the target.
  private func scheduledFlush() {
    lock.lock()
    isScheduled = false
    guard !isRunning else {
      lock.unlock()  // a flush run at once is on its way: it takes what waits
      return
    }
    isRunning = true
    lock.unlock()
    flush(grouped: groupsScheduledFlushes)
  }

  /// Runs what waits, and what arrives meanwhile, up to `callsPerFlush` rounds; `isRunning`
  /// is set by the caller and cleared here.
  private func flush(grouped: Bool) {
    if grouped {
      batch { flushValues() }
    } else {
      flushValues()
    }
  }

  private func flushValues() {
    for _ in 0..<Self.callsPerFlush {
      lock.lock()
      guard !pending.isEmpty else {
        isRunning = false
        let released = keepAlive.take()
        lock.unlock()
        withExtendedLifetime(released) {}  // let go outside the lock
        return
      }
      // Everything waiting, at once: what arrives while it runs waits for the next round.
      var values: [Value] = []
      var valueCauses: [[Cause]] = []
      swap(&values, &pending)
      swap(&valueCauses, &causes)
      lock.unlock()
      for (index, value) in values.enumerated() {
        let causes = index < valueCauses.count ? valueCauses[index] : []
        if causes.isEmpty {
          run(value)
        } else {
          let cause = causes.count == 1 ? causes[0] : Cause(.group, parents: causes)
          Tracing.with(cause, ThreadContext.current) { run(value) }
        }
      }
    }
    // A sender faster than the handler: let the target run other work first.
    lock.lock()
    isRunning = false
    let mustSchedule = !pending.isEmpty && !isScheduled
    if mustSchedule { isScheduled = true }
    lock.unlock()
    if mustSchedule { scheduleFlush() }
  }
}

extension Hop {
  /// A hop to the main actor: values sent on the main thread run at once, others in a
  /// main-actor task (started with `_startMainActorTask`, so that a test clock waits for it).
  ///
  /// - Parameters:
  ///   - policy: What is kept of values sent while earlier ones wait.
  ///   - groupsScheduledFlushes: See ``init(_:schedule:runsHere:groupsScheduledFlushes:run:)``.
  ///   - run: Runs one value on the main actor.
  package static func toMainActor(
    _ policy: Policy, groupsScheduledFlushes: Bool = false,
    run: @escaping @MainActor @Sendable (Value) -> Void
  ) -> Hop {
    Hop(
      policy,
      // Followed by work tracking, so that a test clock waits for the hop.
      schedule: { flush in _startMainActorTask { flush() } },
      runsHere: { _MainThread.isCurrent },
      groupsScheduledFlushes: groupsScheduledFlushes,
      run: { value in
        // Safe: the hop hands each value to one flush, which runs it here and keeps no other
        // reference; the engine moves values between threads the same way.
        nonisolated(unsafe) let value = value
        MainActor.assumeIsolated { run(value) }
      })
  }
}
