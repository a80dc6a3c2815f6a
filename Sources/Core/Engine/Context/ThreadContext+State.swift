// The state a `ThreadContext` keeps, one struct per concern. Every field is only ever touched by
// the thread that owns the context.

extension ThreadContext {
  /// The open `batch { }` on this thread.
  @usableFromInline
  package struct BatchState {
    /// Nesting depth of `batch { }` on this thread.
    @usableFromInline package var depth = 0
    /// Sources written inside the open batch, in first-write order.
    @usableFromInline var touched: ContiguousArray<AnyNode> = []
    /// The identity of the open outermost batch, unique across batches and threads (never 0):
    /// what a source records when the batch first writes it (`AnyNode.writes.lastBatch`).
    @usableFromInline var identity: UInt64 = 0
    /// Events emitted inside the open batch, in order: each event's source, and what queues
    /// the event on it (called with the source's lock held when the batch ends).
    var events: [(source: AnyNode, queue: () -> Void)] = []
    /// Sources whose owner went away inside the open batch; they complete when it ends.
    var completions: [AnyNode] = []

    @usableFromInline
    init() {}
  }

  /// The open invalidation scope: batches and deliveries open one, and invalidations requested
  /// inside it run once, at the end of the outermost (see InvalidationScope.swift).
  @usableFromInline
  package struct ScopeState {
    /// Nesting depth of invalidation scopes.
    @usableFromInline package var depth = 0
    /// The open outermost scope's identity once asked for (see `currentScopeIdentity()`),
    /// else 0.
    @usableFromInline var identity: UInt64 = 0
    /// Invalidations deferred to the end of the outermost scope, deduplicated.
    var invalidations = PendingInvalidations()
    /// Subscriptions cancelled on this thread while their node's delivery was under way.
    @usableFromInline var cancelledDuringDelivery: [ObjectIdentifier] = []
    /// Slot blocks of subscription bags emptied on this thread while `cancelledDuringDelivery`
    /// was in use: freed with it, at the end of the outermost scope, so that no subscription
    /// made meanwhile gets the identifier of a sink the delivery under way still holds (see
    /// `SubscriptionBag.free(_:)`).
    var slotBlocksToFree: [UnsafeMutablePointer<UInt>] = []

    @usableFromInline
    init() {}
  }

  /// The next identity this thread hands out, and the end of the block of identities it took
  /// from the process-wide count (see `currentScopeIdentity()`).
  @usableFromInline
  struct IdentityBlock {
    @usableFromInline var next: UInt64 = 0
    @usableFromInline var limit: UInt64 = 0

    @usableFromInline
    init() {}
  }

  /// The computation under way on this thread. A drain run in the middle of one sets it aside
  /// as a whole (`withComputationSetAside(_:)`): a fresh `Computation()` is "computing nothing".
  @usableFromInline
  package struct Computation {
    /// Derived nodes whose value this thread is computing, to report a node that depends on
    /// itself.
    @usableFromInline var nodes: ContiguousArray<ObjectIdentifier> = []
    /// The tracked run under way on this thread (see `ReadTracker`), and whether there is one
    /// (what the read path tests). Unowned: the tracker pool keeps every tracker alive, and
    /// swapping it costs no reference counting. Set both with `setActiveTracker(_:)`.
    @usableFromInline package internal(set) unowned(unsafe) var activeTracker: ReadTracker?
    @usableFromInline var isTracking = false
    /// The stamp of the pull this thread is running (see `Engine.pullInOrder`), if any: values
    /// pulled in it are current for its reads even if writes land meanwhile.
    @usableFromInline var pullStamp: UInt64?
    /// The root domain `pullStamp` counts the writes of: a stamp is a count of one domain's
    /// writes, so a value of another domain cached at the same number is not current by it.
    @usableFromInline var pullRoot: ObjectIdentifier?
    /// The identity of the outermost pull this thread is running (0 when none): a value
    /// computed in it is reused by its later reads even when it may not be cached for the
    /// stamp (`AnyNode.pullCache.inPull`), so one read computes each node at most once.
    @usableFromInline var outermostPull: UInt64 = 0
    #if DEBUG
      /// The oldest stamp, of the pull's root domain, of the pulled values the computation under
      /// way in a pull took (`AnyNode.notePulledValueTaken(in:)`): a value computed at a stamp must
      /// not be computed from one cached at an older stamp, which may lack writes that stamp
      /// counts (see `AnyNode.wasPulledInThisPull()`). Debug only.
      @usableFromInline var oldestTakenStamp: UInt64 = .max
    #endif
    /// Cleared by a computation on demand that read inputs its node is not linked to: its
    /// value may not be cached for the stamp (see `DerivedNode.pullOneSpecialized`).
    @usableFromInline var pulledValueIsCacheable = true
    /// Set by a computed property's run on demand that read exactly its node's inputs, in
    /// order; cleared by the pull before it computes (see `PullCache.readsMatchInputs`).
    @usableFromInline var pulledReadsMatch = false
    /// Whether a pull inside this thread's batch cached a value a delivery may take (see
    /// `DerivedNode.pulledForDelivery(_:)`): only then do the delivered runs of computed
    /// properties look for one. Cleared when the outermost batch ends.
    @usableFromInline var pulledInBatch = false
    /// Whether this thread recomputes a segment of a delivery under one Observation tracking,
    /// and the computed properties' nodes that ran in it untracked (see
    /// `Engine.recomputeSegment`). The delivered ones are listed through
    /// `AnyNode.nextSegmentRun` from `segmentDelivered` (two stores a run); those computed on
    /// demand, in a pull, in `segmentPulled`, held: a pulled node may be made and dropped
    /// inside the segment (a computed property made and read in a computation), and must
    /// outlive the segment's end, which touches it.
    @usableFromInline var isInObservationSegment = false
    @usableFromInline var segmentDelivered: Unmanaged<AnyNode>?
    @usableFromInline var segmentPulled: ContiguousArray<AnyNode> = []

    @usableFromInline
    init() {}

    /// Whether this thread is in the middle of a computation: computing a derived value on
    /// demand, or in a tracked run (a computed property's, a view pass's), or in a pull.
    var isUnderWay: Bool { !nodes.isEmpty || isTracking || pullStamp != nil }

    /// Whether a value cached as `cache` says was computed in the outermost pull under way, at
    /// the stamp of the pull now running or a later one of its root domain: what that pull's
    /// computations may take (see `AnyNode.wasPulledInThisPull()`).
    @inlinable
    func holdsPulledValue(_ cache: AnyNode.PullCache) -> Bool {
      guard let pullStamp, cache.inPull == outermostPull else { return false }
      return cache.stampRoot == pullRoot && cache.stamp >= pullStamp
    }
  }

  /// The read trackers of this thread's tracked runs: `depth` of `pool` are in use by the runs
  /// under way, innermost last; the pool only grows.
  struct TrackerPool {
    var pool: [ReadTracker] = []
    var depth = 0
  }

  /// This thread's part in Apple's Observation.
  @usableFromInline
  struct ObservationState {
    /// Whether the engine's own Observation tracking is open on this thread
    /// (`ObservableReads.track`), whose reads of properties are not shown to Observation.
    @usableFromInline var hidesReads = false
    /// Whether Observation hashed the probe's key path during the probe's last access (see
    /// `ObservationVisibility`).
    var probeHit = false

    @usableFromInline
    init() {}
  }

  /// The lists `Engine.pullInOrder` works in.
  struct PullScratch {
    var order: [AnyNode] = []
    var stack: [Engine.PostOrderFrame] = []
  }

  /// Inputs of freed nodes waiting to be let go (see `Engine.release`), and whether this thread
  /// is letting them go.
  struct ReleaseState {
    var pending: [Any] = []
    var isUnderWay = false
  }

  /// The delivery sessions besides the primary one: whether the primary is in use, the pool
  /// for deliveries nested in it, and the session computing derived values on this thread, if
  /// any (its owner keeps it alive).
  struct SessionPool {
    var isPrimaryInUse = false
    var free: [DrainSession] = []
    /// The session computing derived values, held unretained: reading it through `active`
    /// takes a reference, which paths that only read a field of it skip.
    var activeReference: Unmanaged<DrainSession>?
    var active: DrainSession? { activeReference?.takeUnretainedValue() }
  }

  /// What this thread holds of drainer roles (see ``Domain`` and `DrainerRole`).
  @usableFromInline
  package struct RoleState {
    /// How many drainer roles this thread holds: a thread that holds none may wait for its
    /// turn in a busy domain; one that holds any must not, or two could deadlock.
    @usableFromInline package var held = 0
    /// Whether `cascade` is set: the one test every write makes of it (a byte, beside `held`,
    /// which the write touches anyway; the reference would cost a comparison more).
    @usableFromInline var hasCascade = false
    /// The cascade depth of the change this thread is delivering (see `Domain.enqueue`).
    @usableFromInline var eventDepth: Int32 = 0
    /// Whether the thread that woke this one handed it a drainer role. Written by the waker
    /// before it signals the parker, read by this thread after.
    var wasHanded = false
    /// Where this thread waits for its turn (see `ThreadContext.parker`).
    var parkerStorage: Parker?
    /// The first domain, of those this thread drains, in which its own deliveries queued a
    /// change (a sink's write into the domain it is delivering): while that change waits, a
    /// sink's write into a domain nobody delivers is queued behind it, not delivered at once
    /// (see `SourceNode.writeInCascadeOrder`). `nil` when there is none; cleared once the
    /// thread gives up the role there, or holds none.
    @usableFromInline var cascade: Domain? {
      didSet { hasCascade = cascade != nil }
    }

    @usableFromInline
    init() {}
  }

  /// While a tracer records (see `Tracing`): the cause of what this thread does now (the
  /// change whose sinks run, the invalidation performed, the pass under way), and the number
  /// of the open outermost batch once a traced write in it asked for one (0 otherwise).
  package struct TraceContext {
    package var cause: Cause?
    package var batch = 0
  }
}
