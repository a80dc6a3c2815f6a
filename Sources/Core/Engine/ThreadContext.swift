#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
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
  @exclusivity(unchecked) var batchTouched: ContiguousArray<AnyNode> = []
  @exclusivity(unchecked) var batchTouchedSet: Set<ObjectIdentifier> = []
  /// Sources whose owner went away inside the open batch; they complete when it ends.
  @exclusivity(unchecked) var completionsAfterBatch: [AnyNode] = []
  /// Nesting depth of invalidation scopes (batches and deliveries).
  @exclusivity(unchecked) @usableFromInline package var scopeDepth = 0
  /// The open outermost scope's identity once asked for (see `currentScopeIdentity()`), else 0.
  @exclusivity(unchecked) @usableFromInline var scopeIdentity: UInt64 = 0
  /// Invalidations deferred to the end of the outermost scope, deduplicated.
  @exclusivity(unchecked) var invalidations = PendingInvalidations()
  /// Derived nodes whose value this thread is computing, to report a node that depends on itself.
  @exclusivity(unchecked) var computing: ContiguousArray<ObjectIdentifier> = []
  /// Subscriptions cancelled on this thread while their node's delivery was under way.
  @exclusivity(unchecked) @usableFromInline var cancelledDuringDelivery: [ObjectIdentifier] = []
  /// Reusable scratch space for drains; nested drains (a sink writing another domain) each
  /// take their own.
  @exclusivity(unchecked) var freeSessions: [DrainSession] = []
  /// The session a single write delivers in unless one is under way on this thread already:
  /// borrowed in place, with no reference counting.
  let primarySession = DrainSession()
  /// Whether a delivery on this thread is using `primarySession`.
  var isPrimarySessionInUse = false
  /// The session most recently returned, kept out of `freeSessions` so that the common case
  /// (one drain at a time) touches no array.
  @exclusivity(unchecked) var spareSession: DrainSession?
  /// The session computing derived values on this thread, if any (its owner keeps it alive).
  @exclusivity(unchecked) unowned(unsafe) var activeSession: DrainSession?

  /// This thread's number among the threads that have had a context, from 1: the high bits of
  /// its scope identities.
  @usableFromInline let threadSerial: UInt64
  /// How many scope identities this thread has handed out: their low bits.
  @exclusivity(unchecked) @usableFromInline var scopesIdentified: UInt64 = 0

  init() {
    threadSerial = Self.nextThreadSerial()
  }

  /// The calling thread's context, created on first use.
  @inlinable
  package static var current: ThreadContext {
    if let pointer = pthread_getspecific(threadContextKey) {
      return Unmanaged<ThreadContext>.fromOpaque(pointer).takeUnretainedValue()
    }
    return makeCurrent()
  }

  /// Runs `body` with the calling thread's context, borrowed: the thread keeps its context
  /// alive until it exits, so the hot paths need not retain it.
  @inlinable @inline(__always)
  package static func withCurrent<Result>(_ body: (ThreadContext) -> Result) -> Result {
    if let pointer = pthread_getspecific(threadContextKey) {
      return Unmanaged<ThreadContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }
    return body(makeCurrent())
  }

  @usableFromInline
  static func makeCurrent() -> ThreadContext {
    let context = ThreadContext()
    pthread_setspecific(threadContextKey, Unmanaged.passRetained(context).toOpaque())
    return context
  }

  /// An identity for this thread in a domain's list of drainers.
  @usableFromInline var id: ObjectIdentifier { ObjectIdentifier(self) }

  @usableFromInline
  func takeSession() -> DrainSession {
    if let session = spareSession.take() { return session }
    return freeSessions.popLast() ?? DrainSession()
  }

  func returnSession(_ session: consuming DrainSession) {
    if spareSession == nil {
      spareSession = session
    } else {
      freeSessions.append(session)
    }
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
  /// The thread's serial number is the high 24 bits and a count of its scopes the low 40, so
  /// no lock is taken: identities repeat only after a trillion scopes on one thread, or 16
  /// million threads.
  @inlinable
  package func currentScopeIdentity() -> UInt64 {
    if scopeIdentity == 0 {
      scopesIdentified &+= 1
      scopeIdentity = threadSerial &<< 40 | scopesIdentified & (1 &<< 40 &- 1)
    }
    return scopeIdentity
  }

  /// `currentScopeIdentity()` if a scope is open on this thread, else 0.
  @inlinable
  package func openScopeIdentity() -> UInt64 {
    scopeDepth > 0 ? currentScopeIdentity() : 0
  }

  /// A thread serial number never handed out before (taken once per thread).
  static func nextThreadSerial() -> UInt64 {
    threadSerials.lock()
    defer { threadSerials.unlock() }
    lastThreadSerial += 1
    return lastThreadSerial
  }

  @usableFromInline
  func outermostScopeEnded() {
    scopeIdentity = 0
    if !cancelledDuringDelivery.isEmpty { cancelledDuringDelivery.removeAll(keepingCapacity: true) }
    if !invalidations.isEmpty { flushInvalidations() }
  }
}

#if canImport(Darwin)
  private func releaseThreadContext(_ pointer: UnsafeMutableRawPointer) {
    Unmanaged<ThreadContext>.fromOpaque(pointer).release()
  }
#else
  private func releaseThreadContext(_ pointer: UnsafeMutableRawPointer?) {
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

/// Guards `lastThreadSerial`.
private let threadSerials = Lock()
// Safe: only read and written while `threadSerials` is held.
nonisolated(unsafe) private var lastThreadSerial: UInt64 = 0
