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
  /// Nesting depth of `batch { }` on this thread.
  @exclusivity(unchecked) @usableFromInline package var batchDepth = 0
  /// Sources written inside the open batch, in first-write order.
  @exclusivity(unchecked) @usableFromInline var batchTouched: ContiguousArray<AnyNode> = []
  /// The identity of the open outermost batch, unique across batches and threads (never 0):
  /// what a source records when the batch first writes it (`AnyNode.touchedInBatch`).
  @exclusivity(unchecked) @usableFromInline var batchIdentity: UInt64 = 0
  /// Events emitted inside the open batch, in order: each event's source, and what queues the
  /// event on it (called with the source's lock held when the batch ends).
  @exclusivity(unchecked) var batchEvents: [(source: AnyNode, queue: () -> Void)] = []
  /// Sources whose owner went away inside the open batch; they complete when it ends.
  @exclusivity(unchecked) var completionsAfterBatch: [AnyNode] = []
  /// Nesting depth of invalidation scopes (batches and deliveries).
  @exclusivity(unchecked) @usableFromInline package var scopeDepth = 0
  /// The open outermost scope's identity once asked for (see `currentScopeIdentity()`), else 0.
  @exclusivity(unchecked) @usableFromInline var scopeIdentity: UInt64 = 0
  /// Invalidations deferred to the end of the outermost scope, deduplicated.
  @exclusivity(unchecked) var invalidations = PendingInvalidations()
  /// Derived nodes whose value this thread is computing, to report a node that depends on itself.
  @exclusivity(unchecked) @usableFromInline var computing: ContiguousArray<ObjectIdentifier> = []
  /// The tracked run under way on this thread (see `ReadTracker`), whether there is one (what
  /// the read path tests), and the pool of trackers: `trackerDepth` of them are in use by the
  /// runs under way, innermost last.
  /// Unowned: the pool keeps every tracker alive, and swapping it costs no reference counting.
  /// Set both with `setActiveTracker(_:)`.
  @exclusivity(unchecked) @usableFromInline package internal(set) unowned(unsafe) var activeTracker:
    ReadTracker?
  @exclusivity(unchecked) @usableFromInline var isTracking = false
  @exclusivity(unchecked) var trackerPool: [ReadTracker] = []
  /// The tracker of delivered computations (see `ComputedLink.compute`), apart from the pool:
  /// a delivered run is never nested in another on one thread (computations do not write), so
  /// one is enough, and it is found without indexing the pool. `deliveryTracker` is the same
  /// object, held unretained for the hot path.
  let deliveryTrackerStorage = ReadTracker(mode: .delivery)
  @usableFromInline let deliveryTracker: Unmanaged<ReadTracker>
  @exclusivity(unchecked) var trackerDepth = 0
  /// Whether this thread recomputes a segment of a delivery under one Observation tracking,
  /// and the computed properties' nodes that ran in it untracked (see
  /// `Engine.recomputeSegment`).
  @exclusivity(unchecked) @usableFromInline var isInObservationSegment = false
  /// Whether the engine's own Observation tracking is open on this thread
  /// (`ObservableReads.track`), whose reads of properties are not shown to Observation, and
  /// whether Observation hashed the probe's key path during the probe's last access (see
  /// `ObservationVisibility`).
  @exclusivity(unchecked) @usableFromInline var hidesReadsFromObservation = false
  @exclusivity(unchecked) var observationProbeHit = false
  /// The delivered ones are listed through `AnyNode.nextSegmentRun` from `segmentDelivered`
  /// (two stores a run); those computed on demand, in a pull, in `segmentPulled`, held: a
  /// pulled node may be made and dropped inside the segment (a computed property made and
  /// read in a computation), and must outlive the segment's end, which touches it.
  @exclusivity(unchecked) @usableFromInline var segmentDelivered: Unmanaged<AnyNode>?
  @exclusivity(unchecked) @usableFromInline var segmentPulled: ContiguousArray<AnyNode> = []
  /// The lists `Engine.pullInOrder` works in, kept between pulls so a pull allocates nothing.
  @exclusivity(unchecked) var pullOrder: [AnyNode] = []
  @exclusivity(unchecked) var pullStack: [Engine.PostOrderFrame] = []
  /// The stamp of the pull this thread is running (see `Engine.pullInOrder`), if any: values
  /// pulled in it are current for its reads even if writes land meanwhile.
  @exclusivity(unchecked) @usableFromInline var pullStamp: UInt64?
  /// The identity of the outermost pull this thread is running (0 when none): a value computed
  /// in it is reused by its later reads even when it may not be cached for the stamp
  /// (`AnyNode.pulledInPull`), so one read computes each node at most once.
  @exclusivity(unchecked) @usableFromInline var outermostPull: UInt64 = 0
  /// Cleared by a computation on demand that read inputs its node is not linked to: its
  /// value may not be cached for the stamp (see `DerivedNode.pullOneSpecialized`).
  @exclusivity(unchecked) @usableFromInline var pulledValueIsCacheable = true
  /// Inputs of freed nodes waiting to be let go (see `Engine.release`), and whether this
  /// thread is letting them go.
  @exclusivity(unchecked) var releasing: [Any] = []
  @exclusivity(unchecked) var isReleasing = false
  /// Subscriptions cancelled on this thread while their node's delivery was under way.
  @exclusivity(unchecked) @usableFromInline var cancelledDuringDelivery: [ObjectIdentifier] = []
  /// Slot blocks of subscription bags emptied on this thread while `cancelledDuringDelivery`
  /// was in use: freed with it, at the end of the outermost scope, so that no subscription
  /// made meanwhile gets the identifier of a sink the delivery under way still holds (see
  /// `SubscriptionBag.free(_:)`).
  @exclusivity(unchecked) var slotBlocksToFree: [UnsafeMutablePointer<UInt>] = []
  /// The scratch space of this thread's deliveries (see `withSession(_:)`): one used in place,
  /// and a pool for deliveries nested in it (a sink writing another domain).
  let primarySession = DrainSession()
  @exclusivity(unchecked) var isPrimarySessionInUse = false
  @exclusivity(unchecked) var freeSessions: [DrainSession] = []
  /// The session computing derived values on this thread, if any (its owner keeps it alive).
  @exclusivity(unchecked) unowned(unsafe) var activeSession: DrainSession?

  /// How many drainer roles this thread holds (see ``Domain``): a thread that holds none may
  /// wait for its turn in a busy domain; one that holds any must not, or two could deadlock.
  @exclusivity(unchecked) @usableFromInline package var rolesHeld = 0
  /// The cascade depth of the change this thread is delivering (see `Domain.enqueue`).
  @exclusivity(unchecked) @usableFromInline var eventDepth: Int32 = 0
  /// Whether the thread that woke this one handed it a drainer role. Written by the waker
  /// before it signals `parker`, read by this thread after.
  @exclusivity(unchecked) var wasHandedRole = false
  /// Where this thread waits for its turn in a busy domain; made on first use.
  @exclusivity(unchecked) var parkerStorage: Parker?
  var parker: Parker {
    if let parkerStorage { return parkerStorage }
    let made = Parker()
    parkerStorage = made
    return made
  }

  /// While a tracer records (see `Tracing`): the cause of what this thread does now (the
  /// change whose sinks run, the invalidation performed, the pass under way), and the number
  /// of the open outermost batch once a traced write in it asked for one (0 otherwise).
  @exclusivity(unchecked) package var traceCause: Cause?
  @exclusivity(unchecked) package var traceBatch = 0

  /// The next scope identity this thread hands out, and the end of the block of identities it
  /// took from the process-wide count (see `currentScopeIdentity()`).
  @exclusivity(unchecked) @usableFromInline var nextScopeIdentity: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline var scopeIdentityLimit: UInt64 = 0

  /// The origins of nodes this thread made recently (see `NodeOrigin.made`).
  let originCache = OriginCache()

  init() {
    deliveryTracker = Unmanaged.passUnretained(deliveryTrackerStorage)
  }

  deinit {
    originCache.deallocate()
  }

  /// Makes `tracker` the active tracker (`nil`: none).
  @inlinable @inline(__always)
  package func setActiveTracker(_ tracker: ReadTracker?) {
    activeTracker = tracker
    isTracking = tracker != nil
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
    if let pointer = found {
      return Unmanaged<ThreadContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }
    return body(makeCurrent())
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
    if _fastPath(!isPrimarySessionInUse) {
      isPrimarySessionInUse = true
      defer { isPrimarySessionInUse = false }
      return Unmanaged.passUnretained(primarySession)._withUnsafeGuaranteedRef(body)
    }
    let session = freeSessions.popLast() ?? DrainSession()
    defer { freeSessions.append(session) }
    return body(session)
  }

  /// Records that this thread computes `node` on demand; stops the program if it already
  /// was (the node depends on itself).
  @usableFromInline
  func beginComputing(_ node: AnyNode) {
    let id = ObjectIdentifier(node)
    if computing.contains(id) {
      Engine.misuse(
        """
        \(node.describedForMisuse) depends on itself: computing it read its own value \
        (directly or through other derived values). Derive it from its sources instead, or \
        break the loop with a relay that a sink writes.
        """)
    }
    computing.append(id)
  }

  /// Ends what `beginComputing(_:)` began.
  @usableFromInline
  func endComputing() { computing.removeLast() }

  /// Whether this thread is in the middle of a computation: computing a derived value on
  /// demand, or in a tracked run (a computed property's, a view pass's).
  var isComputing: Bool { !computing.isEmpty || isTracking || pullStamp != nil }

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
    var computing: ContiguousArray<ObjectIdentifier> = []
    swap(&computing, &self.computing)
    let tracker = activeTracker
    setActiveTracker(nil)
    let pullStamp = self.pullStamp
    self.pullStamp = nil
    let outermostPull = self.outermostPull
    self.outermostPull = 0
    let cacheable = pulledValueIsCacheable
    pulledValueIsCacheable = true
    let inSegment = isInObservationSegment
    isInObservationSegment = false
    let segmentDelivered = self.segmentDelivered
    self.segmentDelivered = nil
    var segmentPulled: ContiguousArray<AnyNode> = []
    swap(&segmentPulled, &self.segmentPulled)
    body()
    swap(&segmentPulled, &self.segmentPulled)
    self.segmentDelivered = segmentDelivered
    isInObservationSegment = inSegment
    pulledValueIsCacheable = cacheable
    self.outermostPull = outermostPull
    self.pullStamp = pullStamp
    setActiveTracker(tracker)
    swap(&computing, &self.computing)
  }

  /// Opens an invalidation scope; invalidations requested inside it run once, at its end.
  @inlinable
  package func beginScope() { scopeDepth += 1 }

  /// Closes a scope; at the outermost end, runs the deferred invalidations in request order.
  @inlinable
  package func endScope() {
    scopeDepth -= 1
    if scopeDepth == 0 { outermostScopeEnded() }
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
    if scopeIdentity == 0 {
      if nextScopeIdentity == scopeIdentityLimit { takeScopeIdentities() }
      scopeIdentity = nextScopeIdentity
      nextScopeIdentity &+= 1
    }
    return scopeIdentity
  }

  /// A new identity for the outermost batch starting on this thread, from the same count as
  /// scope identities (so unique across threads too).
  @inlinable
  func takeBatchIdentity() {
    if nextScopeIdentity == scopeIdentityLimit { takeScopeIdentities() }
    batchIdentity = nextScopeIdentity
    nextScopeIdentity &+= 1
  }

  /// A new identity, unique across threads (and never 0), from the same count as scope
  /// identities.
  func takeUniqueIdentity() -> UInt64 {
    if nextScopeIdentity == scopeIdentityLimit { takeScopeIdentities() }
    defer { nextScopeIdentity &+= 1 }
    return nextScopeIdentity
  }

  /// `currentScopeIdentity()` if a scope is open on this thread, else 0.
  @inlinable @inline(__always)
  package func openScopeIdentity() -> UInt64 {
    scopeDepth > 0 ? currentScopeIdentity() : 0
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
    nextScopeIdentity = first
    scopeIdentityLimit = first &+ Self.scopeIdentityBlock
  }

  @usableFromInline
  func outermostScopeEnded() {
    scopeIdentity = 0
    // The work out of line: what is left is a leaf function, with no registers to save.
    if _slowPath(!cancelledDuringDelivery.isEmpty || !invalidations.isEmpty) {
      outermostScopeEndedWithWork()
    }
  }

  @inline(never)
  func outermostScopeEndedWithWork() {
    if !cancelledDuringDelivery.isEmpty { cancelledDuringDelivery.removeAll(keepingCapacity: true) }
    if !slotBlocksToFree.isEmpty {
      for block in slotBlocksToFree { block.deallocate() }
      slotBlocksToFree.removeAll()
    }
    if !invalidations.isEmpty { flushInvalidations() }
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
