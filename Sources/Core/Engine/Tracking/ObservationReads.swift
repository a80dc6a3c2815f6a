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
  /// it (on this thread, before returning), and the handler `didRead` returns once when the
  /// first of them is about to change.
  @inline(__always)
  static func track(
    _ body: () -> Void, didRead: () -> @Sendable () -> Void
  ) {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        // The handler is an autoclosure, evaluated only when `body` read something observable:
        // that is how a run learns that it did. Reads of properties inside are the engine's
        // own, hidden from Observation (see `ObservationVisibility`).
        ThreadContext.withCurrent { context in
          let hid = context.observation.hidesReads
          context.observation.hidesReads = true
          withObservationTracking(body, onChange: didRead())
          context.observation.hidesReads = hid
        }
        return
      }
    #endif
    body()
  }
}

/// What a node knows of its computation's reads of `@Observable` objects (see
/// `Engine.recomputeSegment`).
@usableFromInline
enum ObservableReadsState: UInt8 {
  /// Not a computed property's node.
  case notComputed
  /// A computed property's node whose computation has not been seen reading any: a delivery
  /// runs it without Observation's tracking, inside a segment that tracks many runs at once.
  case noneSeen
  /// A computed property's node whose computation read some: every run is tracked on its own,
  /// to know exactly what it read.
  case seen
}

extension ObservableReads {
  /// Whether Observation's tracking exists on this system: without it, there is nothing to
  /// follow and no segment to open.
  static let isAvailable: Bool = {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) { return true }
    #endif
    return false
  }()
}

extension Engine {
  /// Recomputes `first`, a computed property's node not seen reading `@Observable` objects,
  /// and the queued nodes after it, under one Observation tracking instead of one per
  /// computation: tracking a run costs more than a small computation, so a delivery through
  /// a chain of computed properties would otherwise pay it at every link. Role.
  ///
  /// The segment ends before a node seen reading `@Observable` objects (it runs on its own,
  /// tracked on its own, after the segment). If anything in the segment read one, the segment
  /// cannot tell which computation did: every computed property that ran in it is marked as
  /// seen reading and queued again, to run now, tracked on its own, in this same event, so
  /// its subscribers still hear of the event once. That happens once per node at most.
  @inline(never)
  static func recomputeSegment(
    startingWith first: Unmanaged<AnyNode>, _ session: DrainSession, _ context: ThreadContext
  ) {
    var outside: Unmanaged<AnyNode>?
    let didRead = context.runSegment {
      recomputeStep(first, session)
      while let next = session.popMin() {
        if next._withUnsafeGuaranteedRef({ $0.observableReads == .seen }) {
          outside = next
          break
        }
        recomputeStep(next, session)
      }
    }
    var next = context.computation.segmentDelivered
    while let run = next {
      run._withUnsafeGuaranteedRef { node in
        node.isListedInSegment = false
        if didRead {
          node.observableReads = .seen
          session.push(node)
        }
        next = node.nextSegmentRun
      }
    }
    context.computation.segmentDelivered = nil
    // Pulled on demand from another domain: not cached (see `pullInSegment`).
    context.endPulledInSegment(uncaching: didRead)
    if let outside { recomputeStep(outside, session) }
  }
}

extension ThreadContext {
  /// Runs `body` as a segment: under one Observation tracking, with `isInObservationSegment`
  /// set; returns whether anything in it read an `@Observable` object.
  func runSegment(_ body: () -> Void) -> Bool {
    var didRead = false
    computation.isInObservationSegment = true
    ObservableReads.track(body) {
      didRead = true
      return {}
    }
    computation.isInObservationSegment = false
    return didRead
  }

  /// Lets go of the nodes pulled in the segment that ended, first dropping their cached
  /// values if the segment read an `@Observable` object (a change of it would not move the
  /// stamp they are cached for).
  func endPulledInSegment(uncaching: Bool) {
    if uncaching {
      for node in computation.segmentPulled {
        node.withRootLocked { root in
          node.pullCache.hasValue = false
          root.lock.unlock()
        }
      }
    }
    computation.segmentPulled.removeAllKeepingStorage()
  }
}

/// The source a computed property depends on while its computation reads `@Observable`
/// objects: each change Observation reports is a write to it (see `ObservableReads`).
///
/// Not final: a computed property's body (`ComputedBody`) is one, so that a computed property
/// allocates one object for both.
@usableFromInline
class ObservationTrigger: @unchecked Sendable {
  // Safe: the mutable fields are only touched while `lock` is held; the node is Sendable.

  /// The trigger's lock: one of the striped subscription locks, chosen by the trigger's address,
  /// rather than a `Lock` of its own, which cost every computed property two allocations (the
  /// object and its primitive's block) though most never read an `@Observable` object. It is
  /// held only to read and write the fields below, never while taking another lock.
  private var lock: Lock.Handle { subscriptionLock(for: UInt(bitPattern: ObjectIdentifier(self))) }
  @exclusivity(unchecked) private var made: SourceNode<UInt64>?
  /// Which registration is the current one: every run registers anew, and Observation keeps a
  /// registration until the object changes, so only the newest may write the trigger.
  @exclusivity(unchecked) private var generation: UInt64 = 0
  /// Writes the trigger from one main-actor task however many changes come before it runs:
  /// never at once (a change is reported before the object stores it).
  private lazy var hop = Hop<Void>(
    .latest, schedule: { flush in _startMainActorTask { flush() } },
    run: { [weak self] _ in self?.write() })

  @usableFromInline init() {}

  /// Runs `body`, a computation, following the `@Observable` objects it reads: the trigger's
  /// source becomes a dependency of the tracked run, and their changes write it. Returns
  /// whether `body` read any.
  @usableFromInline
  final func track(_ body: () -> Void) -> Bool {
    var didRead = false
    ObservableReads.track(body) {
      didRead = true
      ThreadContext.current.computation.activeTracker?.record(source)
      let registration = register()
      return { [self] in fire(registration) }
    }
    return didRead
  }

  /// The trigger's source, made on first use.
  final var source: SourceNode<UInt64> {
    let lock = lock
    lock.lock()
    if let made {
      lock.unlock()
      return made
    }
    lock.unlock()
    // Made outside the lock, which is held only to read and write the fields (see
    // `subscriptionLocks`); the first to store it wins.
    let node = SourceNode<UInt64>(0, origin: .kind("@Observable reads"))
    lock.lock()
    defer { lock.unlock() }
    if let made { return made }
    made = node
    return node
  }

  /// Makes a new registration the current one; returns its number.
  private func register() -> UInt64 {
    lock.lock()
    defer { lock.unlock() }
    generation &+= 1
    return generation
  }

  /// Records that an observed object is about to change, if `registration` is the current
  /// one: writes the trigger inside a batch (delivered at its end, after the object stored
  /// the value), else from one main-actor task.
  private func fire(_ registration: UInt64) {
    lock.lock()
    guard registration == generation else {
      lock.unlock()
      return
    }
    generation &+= 1  // one change, one write: the registration is spent
    if ThreadContext.current.batch.depth > 0 {
      lock.unlock()
      write()
      return
    }
    let hop = hop
    lock.unlock()
    hop.send(())
  }

  private func write() {
    let source = source
    source.write(source.currentValue() &+ 1, file: #fileID, line: #line)
  }
}
