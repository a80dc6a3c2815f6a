#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
// Where available (not on Apple platforms, nor where the module is not built, as when
// scripts/check-apple-glue emits this module alone), the context is found through a C
// thread-local variable: see `ThreadContext.withCurrent`.
#if !canImport(Darwin) && canImport(InvalidatingPrimitives)
  import InvalidatingPrimitives
#endif

/// The engine's per-thread state: the open batch, the invalidation scope, and scratch space for
/// deliveries, so that the write path allocates nothing once warmed up.
///
/// A `ThreadContext` is only ever touched by the thread that owns it. A synchronous `batch { }`
/// body cannot suspend, so "the thread that runs a batch" and "the task that runs it" are the
/// same for the batch's whole duration.
@usableFromInline
package final class ThreadContext {
  // Each concern's fields are one struct (see ThreadContext+State.swift), stored in place:
  // `context.batch.depth` is a load at a fixed offset, as a field of the class would be.

  /// The open `batch { }` on this thread.
  @exclusivity(unchecked) @usableFromInline package var batch = BatchState()
  /// The open invalidation scope (batches and deliveries), and what its end finishes.
  @exclusivity(unchecked) @usableFromInline package var scope = ScopeState()
  /// The block of process-wide identities this thread hands out (scopes, batches, pulls).
  @exclusivity(unchecked) @usableFromInline var identities = IdentityBlock()
  /// The computation under way on this thread: derived values computed on demand, the
  /// tracked run, the pull, the Observation segment. Set aside as a whole by
  /// `withComputationSetAside(_:)`.
  @exclusivity(unchecked) @usableFromInline package var computation = Computation()
  /// The pool of read trackers: `trackers.depth` of them are in use by the runs under way,
  /// innermost last.
  @exclusivity(unchecked) var trackers = TrackerPool()
  /// The tracker of delivered computations (see `ComputedBody.compute`), apart from the pool:
  /// a delivered run is never nested in another on one thread (computations do not write), so
  /// one is enough, and it is found without indexing the pool. `deliveryTracker` is the same
  /// object, held unretained for the hot path.
  let deliveryTrackerStorage = ReadTracker(mode: .delivery)
  @usableFromInline let deliveryTracker: Unmanaged<ReadTracker>
  /// This thread's part in Apple's Observation (see `ObservationVisibility`).
  @exclusivity(unchecked) @usableFromInline var observation = ObservationState()
  /// The lists `Engine.pullInOrder` works in, kept between pulls so a pull allocates nothing.
  @exclusivity(unchecked) var pullScratch = PullScratch()
  /// Inputs of freed nodes waiting to be let go (see `Engine.release`).
  @exclusivity(unchecked) var release = ReleaseState()
  /// While a new subscriber's first value is computed on this thread: the sources it reads
  /// (see `SourceReadLog`). Not part of `computation`, so that a computation set aside inside
  /// it still notes its reads.
  @exclusivity(unchecked) @usableFromInline package var sourceReads: SourceReadLog?
  /// The scratch space of this thread's deliveries (see `withSession(_:)`): one used in place,
  /// and a pool for deliveries nested in it (a sink writing another domain).
  let primarySession = DrainSession()
  @exclusivity(unchecked) var sessions = SessionPool()
  /// The drainer roles this thread holds and its place among a busy domain's waiters.
  @exclusivity(unchecked) @usableFromInline package var role = RoleState()
  /// While a tracer records (see `Tracing`): what this thread does now, and why.
  @exclusivity(unchecked) package var trace = TraceContext()
  /// The origins of nodes this thread made recently (see `NodeOrigin.made`).
  let originCache = OriginCache()
  /// Domains kept for the next sources this thread makes (see `SpareDomains`).
  @exclusivity(unchecked) var spareDomains = SpareDomains()

  /// Where this thread waits for its turn in a busy domain; made on first use.
  var parker: Parker {
    if let parker = role.parkerStorage { return parker }
    let made = Parker()
    role.parkerStorage = made
    return made
  }

  init() {
    deliveryTracker = Unmanaged.passUnretained(deliveryTrackerStorage)
  }

  deinit {
    originCache.deallocate()
    spareDomains.deallocate()
  }

  /// Makes `tracker` the active tracker (`nil`: none).
  @inlinable @inline(__always)
  package func setActiveTracker(_ tracker: ReadTracker?) {
    computation.activeTracker = tracker
    computation.isTracking = tracker != nil
  }

  /// The calling thread's context, created on first use.
  @inlinable
  package static var current: ThreadContext { withCurrent { $0 } }

  /// Runs `body` with the calling thread's context, borrowed: the thread keeps its context
  /// alive until it exits, so the hot paths need not retain it.
  ///
  /// On Linux the context is read from a C thread-local variable, two instructions inlined
  /// here (`pthread_getspecific` would cost a call, and a lazily made key's `swift_once`, on
  /// every write); the pthread key still owns the context, for its destructor to release it
  /// when the thread exits.
  @inlinable @inline(__always)
  package static func withCurrent<Result>(_ body: (ThreadContext) -> Result) -> Result {
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      let found = invalidating_thread_context_get()
    #else
      let found = pthread_getspecific(threadContextKey)
    #endif
    // `body` called from one place, so that it is inlined (see `Domain.withRootLocked`).
    let pointer = _fastPath(found != nil) ? found.unsafelyUnwrapped : makeCurrentPointer()
    return Unmanaged<ThreadContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
  }

  /// `withCurrent(_:)` for a `body` that throws.
  @inlinable @inline(__always)
  package static func withCurrentRethrowing<Result>(
    _ body: (ThreadContext) throws -> Result
  ) rethrows -> Result {
    if let context = existing { return try context._withUnsafeGuaranteedRef(body) }
    return try body(makeCurrent())
  }

  /// The calling thread's context if it has one (a thread that never used the engine has
  /// none), unretained: what the read path tests, and never makes one.
  @inlinable @inline(__always)
  package static var existing: Unmanaged<ThreadContext>? {
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      let found = invalidating_thread_context_get()
    #else
      let found = pthread_getspecific(threadContextKey)
    #endif
    guard let found else { return nil }
    return Unmanaged<ThreadContext>.fromOpaque(found)
  }

  /// `makeCurrent()`, as the address the thread's key owns.
  @usableFromInline @inline(never)
  static func makeCurrentPointer() -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(makeCurrent()).toOpaque()
  }

  @usableFromInline
  static func makeCurrent() -> ThreadContext {
    let context = ThreadContext()
    let pointer = Unmanaged.passRetained(context).toOpaque()
    pthread_setspecific(threadContextKey, pointer)
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      invalidating_thread_context_set(pointer)
    #endif
    return context
  }

  /// An identity for this thread in a domain's list of drainers.
  @usableFromInline var id: ObjectIdentifier { ObjectIdentifier(self) }

  /// Runs `body` with scratch space for one delivery: the primary session, borrowed in place
  /// with no reference counting, unless a delivery on this thread is using it; then one from
  /// the pool, which only grows.
  @inline(__always)
  func withSession<Result>(_ body: (DrainSession) -> Result) -> Result {
    if _fastPath(!sessions.isPrimaryInUse) {
      sessions.isPrimaryInUse = true
      defer { sessions.isPrimaryInUse = false }
      return Unmanaged.passUnretained(primarySession)._withUnsafeGuaranteedRef(body)
    }
    let session = sessions.free.popLast() ?? DrainSession()
    defer { sessions.free.append(session) }
    return body(session)
  }

  /// Records that this thread computes `node` on demand; stops the program if it already
  /// was (the node depends on itself).
  @usableFromInline
  func beginComputing(_ node: AnyNode) {
    let id = ObjectIdentifier(node)
    if computation.nodes.contains(id) {
      Engine.misuse(
        """
        \(node.describedForMisuse) depends on itself: computing it read its own value \
        (directly or through other derived values). Derive it from its sources instead, or \
        break the loop with a relay that a sink writes.
        """)
    }
    computation.nodes.append(id)
  }

  /// Ends what `beginComputing(_:)` began.
  @usableFromInline
  func endComputing() { computation.nodes.removeLast() }

  /// Whether this thread is in the middle of a computation: computing a derived value on
  /// demand, or in a tracked run (a computed property's, a view pass's).
  var isComputing: Bool { computation.isUnderWay }

  /// Runs `body`, work of the drainer role that is not part of the computation this thread is
  /// in the middle of (see `isComputing`), as if it computed nothing: with no derived values
  /// being computed, no tracked run, no pull and no Observation segment under way, restored
  /// after. A drain that ran with them would let the others' work read through them: a
  /// subscription's first value pulling a node this thread computes would stop as "depends on
  /// itself", a sink's reads would be recorded as the computation's dependencies, and reads
  /// would take values pulled at the computation's older stamp as current.
  ///
  /// (Observation's own tracking is thread-local to Observation and cannot be set aside: a
  /// drain inside a user's `withObservationTracking` adds what its sinks read to it.)
  func withComputationSetAside(_ body: () -> Void) {
    var setAside = Computation()
    swap(&setAside, &computation)
    body()
    swap(&setAside, &computation)
  }

  /// Opens an invalidation scope; invalidations requested inside it run once, at its end.
  @inlinable
  package func beginScope() { scope.depth += 1 }

  /// Closes a scope; at the outermost end, runs the deferred invalidations in request order.
  @inlinable
  package func endScope() {
    scope.depth -= 1
    if scope.depth == 0 { outermostScopeEnded() }
  }

  /// An identity of the open outermost scope, unique across scopes and threads (and never 0).
  /// A property that requested its invalidations in this scope remembers it and skips
  /// requesting them again: the repeats would be dropped anyway, after a search. Call only
  /// inside a scope.
  ///
  /// Identities come from one process-wide 64-bit count, which does not wrap; a thread takes
  /// them a block at a time, so it takes a lock once per block, not once per scope.
  @inlinable
  package func currentScopeIdentity() -> UInt64 {
    if scope.identity == 0 {
      if identities.next == identities.limit { takeScopeIdentities() }
      scope.identity = identities.next
      identities.next &+= 1
    }
    return scope.identity
  }

  /// A new identity for the outermost batch starting on this thread, from the same count as
  /// scope identities (so unique across threads too).
  @inlinable
  func takeBatchIdentity() {
    if identities.next == identities.limit { takeScopeIdentities() }
    batch.identity = identities.next
    identities.next &+= 1
  }

  /// A new identity, unique across threads (and never 0), from the same count as scope
  /// identities.
  func takeUniqueIdentity() -> UInt64 {
    if identities.next == identities.limit { takeScopeIdentities() }
    defer { identities.next &+= 1 }
    return identities.next
  }

  /// `currentScopeIdentity()` if a scope is open on this thread, else 0.
  @inlinable @inline(__always)
  package func openScopeIdentity() -> UInt64 {
    scope.depth > 0 ? currentScopeIdentity() : 0
  }

  /// How many scope identities a thread takes at a time.
  static let scopeIdentityBlock: UInt64 = 1 << 16

  /// Takes the next block of scope identities from the process-wide count.
  @usableFromInline
  func takeScopeIdentities() {
    scopeIdentityCount.lock()
    let first = lastScopeIdentity &+ 1
    lastScopeIdentity &+= Self.scopeIdentityBlock
    scopeIdentityCount.unlock()
    identities.next = first
    identities.limit = first &+ Self.scopeIdentityBlock
  }

  @usableFromInline
  func outermostScopeEnded() {
    scope.identity = 0
    // The work out of line: what is left is a leaf function, with no registers to save.
    if _slowPath(!scope.cancelledDuringDelivery.isEmpty || !scope.invalidations.isEmpty) {
      outermostScopeEndedWithWork()
    }
  }

  @inline(never)
  func outermostScopeEndedWithWork() {
    if !scope.cancelledDuringDelivery.isEmpty {
      scope.cancelledDuringDelivery.removeAllKeepingStorage()
    }
    if !scope.slotBlocksToFree.isEmpty {
      for block in scope.slotBlocksToFree { free(block) }  // malloc's (see SubscriptionBag)
      scope.slotBlocksToFree.removeAll()
    }
    if !scope.invalidations.isEmpty { flushInvalidations() }
  }
}

#if canImport(Darwin)
  private func releaseThreadContext(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<ThreadContext>.fromOpaque(pointer).release()
  }
#else
  private func releaseThreadContext(_ pointer: UnsafeMutableRawPointer?) {
    #if canImport(InvalidatingPrimitives)
      // First, so that engine code run by the context's deinit (or by a later destructor on
      // this exiting thread) makes a new context, as it does through the key, rather than
      // reading a freed one.
      invalidating_thread_context_set(nil)
    #endif
    if let pointer { Unmanaged<ThreadContext>.fromOpaque(pointer).release() }
  }
#endif

/// The key under which each thread keeps its `ThreadContext`; the destructor frees a thread's
/// context when the thread exits.
@usableFromInline
let threadContextKey: pthread_key_t = {
  var key = pthread_key_t()
  let result = pthread_key_create(&key, releaseThreadContext)
  precondition(result == 0, "pthread_key_create failed with \(result)")
  return key
}()

/// Guards `lastScopeIdentity`.
private let scopeIdentityCount = Lock()
// Safe: only read and written while `scopeIdentityCount` is held. The last scope identity
// handed out to a thread's block; identities start at 1.
nonisolated(unsafe) private var lastScopeIdentity: UInt64 = 0
