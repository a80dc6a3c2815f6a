// How a read reaches the tracker (`ReadTracker.swift`): `Property.value`'s tracked read, the
// thread's runs with a tracker from its pool, `untracked { }`, and the value a delivered run
// reads from another domain.

extension ValueNode {
  /// `currentValue()`, recorded as a dependency when the calling thread runs a tracked
  /// computation, or shown to Observation through `property` when Observation's tracking is
  /// open (see `ObservationVisibility`): what `Property.value` returns.
  @inlinable
  package final func trackedValue(visibleThrough property: Property<Value>) -> Value {
    let existing = ThreadContext.existing
    guard let context = existing,
      _slowPath(context._withUnsafeGuaranteedRef({ $0.computation.isTracking }))
    else {
      if ObservationVisibility.isOn {
        let observation = property.observationAddress
        if _slowPath(observation != 0) {
          ObservationVisibility.access(observation, existing)
        } else if _slowPath(ObservationVisibility.isTracking(existing)) {
          property.showReadToObservation()
        }
      }
      return currentValue()
    }
    return context._withUnsafeGuaranteedRef { $0.trackedRead(self) }
  }
}

extension ThreadContext {
  /// Whether the calling thread runs a tracked computation or pass: what a property's getter
  /// that is not a `Property` asks before recording its read (see `ReadTracker.record(_:)`).
  @inlinable
  package static var isTrackingReads: Bool {
    guard let context = existing else { return false }
    return context._withUnsafeGuaranteedRef { $0.computation.isTracking }
  }

  /// Runs `body` as a tracked run, with a tracker from this thread's pool readied for `mode`
  /// and `expected`, then `finish` with the tracker (to read what was recorded), before the
  /// tracker goes back to the pool. Not generic, so that no caller pays for unspecialized
  /// code: `body` stores its result where the caller wants it.
  package func withTracker(
    mode: _ReadMode, expected: consuming ContiguousArray<AnyNode>, deliveredNode: AnyNode? = nil,
    owner: AnyObject? = nil,
    _ body: () -> Void, finish: (ReadTracker) -> Void
  ) {
    let tracker = beginRun(mode: mode, elements: nil, count: 0, deliveredNode: deliveredNode)
    let count = expected.count
    if count > 0 {
      // Moved in, not copied: the caller's array is the tracker's until `clear()`.
      tracker.expectedStorage = expected
      tracker.expectedCount = count
      tracker.expectedElements = tracker.expectedStorage.withUnsafeBufferPointer {
        $0.unmanagedElements
      }
    }
    tracker.setOwner(owner)
    body()
    endRun(tracker)
    finish(tracker)
    finishRun(tracker)
  }

  /// Takes a tracker from the pool, readied for a run (see `ReadTracker.reset`), and makes
  /// it the active one. A run is `beginRun`, the reads, `endRun`, then, once the caller has
  /// read what the tracker recorded, `finishRun`.
  @usableFromInline
  func beginRun(
    mode: _ReadMode, elements: UnsafePointer<Unmanaged<AnyNode>>?, count: Int,
    deliveredNode: AnyNode?
  ) -> ReadTracker {
    if trackers.depth == trackers.pool.count { trackers.pool.append(ReadTracker()) }
    let tracker = trackers.pool.withUnsafeBufferPointer {
      Unmanaged.passUnretained($0[trackers.depth])
    }._withUnsafeGuaranteedRef { $0 }
    trackers.depth += 1
    tracker.reset(mode: mode, elements: elements, count: count, deliveredNode: deliveredNode)
    tracker.outer = computation.activeTracker
    setActiveTracker(tracker)
    return tracker
  }

  /// Ends the reads of the run `tracker` tracks; returns whether it read what the previous
  /// run read, in the same order (then `finishRun` has nothing to let go of).
  @usableFromInline @discardableResult
  func endRun(_ tracker: ReadTracker) -> Bool {
    setActiveTracker(tracker.outer)
    // A run that read a prefix of what the previous one read, in order, and stopped there
    // (`if flag.value { return }`) left the expected order without an unexpected read: its
    // dependencies are that prefix.
    if tracker.inOrder, tracker.matched < tracker.expectedCount { tracker.leaveOrder() }
    return tracker.inOrder
  }

  /// Returns `tracker` to the pool, clean.
  @usableFromInline
  func finishRun(_ tracker: ReadTracker) {
    if tracker.needsClearing { tracker.clear() }
    trackers.depth -= 1
  }

  /// Records a read of `node` in the active tracker and returns its value for the run.
  @inlinable
  func trackedRead<Value>(_ node: ValueNode<Value>) -> Value {
    Unmanaged.passUnretained(computation.activeTracker.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
      $0.read(node)
    }
  }

}

/// Runs `body` without recording what it reads as dependencies of the computed property or
/// the view pass that is running.
///
/// ```swift
/// let greeting = Property {
///   let name = user.name.value                        // a dependency
///   let locale = untracked { settings.locale.value }  // read, but not followed
///   return format(name, locale)
/// }
/// ```
///
/// Outside a tracked computation it only runs `body`.
///
/// - Parameter body: The reads to leave untracked.
/// - Returns: What `body` returns.
public func untracked<Result>(_ body: () throws -> Result) rethrows -> Result {
  let context = ThreadContext.current
  guard context.computation.isTracking else { return try body() }
  let tracker = context.computation.activeTracker
  context.setActiveTracker(nil)
  defer { context.setActiveTracker(tracker) }
  return try body()
}

extension ValueNode {
  /// The value a delivered run of another domain reads from this node (see `ReadTracker.read`),
  /// and whether it is a delivered one: a source's or an attached node's delivered value; a
  /// suspended node's current value, since no delivery reaches it (nor one being computed
  /// again after attaching, whose delivered value is older than the writes it missed), which
  /// may include writes its domain has not delivered.
  @usableFromInline
  final func valueDeliveredElsewhere() -> (value: Value, isDelivered: Bool) {
    let root = home.lockRoot()
    if isSource || (isAttached && !isRefreshing && !isSuspended) {
      // Part of the same event when this thread delivers that domain too (a batch over
      // several domains): its value for the event is the staged one, which the role guards.
      let inThisEvent = hasStaged && root.role.drainers.contains(ThreadContext.current.id)
      let value = inThisEvent ? staged : delivered
      root.lock.unlock()
      return (value, true)
    }
    root.lock.unlock()
    return (currentValue(), false)
  }
}
