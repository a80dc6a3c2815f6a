/// A group of connected nodes that share one lock and one delivery queue.
///
/// Every source starts in a domain of its own; a derived node that reads sources from several
/// domains merges them (union–find, the absorbed domain forwarding to the survivor). So two
/// view models that never meet never share a lock, and nodes that do meet are delivered by one
/// queue in one order, which is what makes derived values glitch-free.
///
/// **The drainer role.** At most one thread at a time delivers a domain's changes (runs its
/// transforms and sinks) and changes its topology. A writer that finds the role free takes it and
/// delivers; one that finds it taken queues its change for the current drainer and returns. The
/// role is handed over under the lock, so every piece of state the role owns is race-free.
/// The only time two threads drain one domain is just after a merge of two busy domains: each
/// finishes the event it was delivering (on disjoint nodes) and the first to finish leaves.
@usableFromInline
package final class Domain: @unchecked Sendable {
  // Safe: every mutable field is guarded by `lock`, except the ones documented as owned by the
  // drainer role, which only the current drainer touches. The same rules make every access
  // exclusive, so stored properties opt out of dynamic exclusivity checks
  // (`@exclusivity(unchecked)`), which would otherwise dominate the write path's cost.
  @usableFromInline let lockStorage = Lock()
  /// The domain's lock, borrowed from `lockStorage` (which keeps it alive as long as the domain).
  @usableFromInline let lock: Lock.Handle

  /// The domain this one was merged into; guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline var forward: Domain? {
    didSet { isForwarded = forward != nil }
  }
  /// Whether `forward` is set: the hot paths test this flag, which costs no reference counting
  /// where testing the optional reference may retain it. Guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline var isForwarded = false
  /// Domains merged into this one (kept one hop from the root); guarded by `lock`.
  @exclusivity(unchecked) var absorbed: [Domain] = []
  /// The threads (their contexts) currently delivering this domain; guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline var drainers = Drainers()
  /// Changes waiting for the drainer, first in, first out; guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline var queue = RingBuffer<Event>()
  /// Source writes whose effect on derived nodes has not been committed yet; while non-zero,
  /// derived values are read by pulling from the sources. Guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline var unsettled = 0
  /// How many writes this domain (and every domain merged into it) has taken; a new derived
  /// node compares it at creation and at attachment to know whether its first value is stale.
  /// Guarded by `lock`.
  @exclusivity(unchecked) @usableFromInline var writeCount: UInt64 = 0
  /// Writes queued by a thread that was delivering this domain, since the domain was last idle.
  @exclusivity(unchecked) @usableFromInline var reentrantWrites = 0

  @usableFromInline package init() { lock = lockStorage.handle }

  /// Locks the root of this domain and returns it; the caller unlocks `root.lock`.
  @inlinable @inline(__always)
  package func lockRoot() -> Domain {
    lock.lock()
    if _fastPath(!isForwarded) { return self }
    return lockForwardedRoot()
  }

  /// The write count and whether every write has been delivered, read together.
  @usableFromInline
  func writeStamp() -> (writes: UInt64, settled: Bool) {
    let root = lockRoot()
    defer { root.lock.unlock() }
    return (root.writeCount, root.unsettled == 0)
  }

  /// `lockRoot()` for a domain that was merged into another: follow the forwarding chain.
  @usableFromInline
  func lockForwardedRoot() -> Domain {
    var domain = self
    while let next = domain.forward {
      domain.lock.unlock()
      domain = next
      domain.lock.lock()
    }
    return domain
  }

  /// Whether `context` is the only kind of drainer here: every drainer is this thread.
  /// Call with the lock held.
  func isDrained(onlyBy context: ThreadContext) -> Bool {
    drainers.allAre(context.id)
  }

  /// Queues a change for the drainer. Call with the lock held and the role taken by another
  /// thread or by this one further up the stack.
  @usableFromInline
  func enqueue(_ event: Event, from context: ThreadContext) {
    if drainers.contains(context.id) {
      reentrantWrites += 1
      if reentrantWrites > Engine.reentrancyLimit {
        lock.unlock()
        preconditionFailure(
          """
          Runaway re-entrancy: sinks wrote back into the values they observe more than \
          \(Engine.reentrancyLimit) times within one delivery, so the changes never settle. \
          A sink that writes must stop writing once the value it wants is reached: compare \
          before you accept, or use removeDuplicates() upstream of the sink.
          """)
      }
    }
    queue.append(event)
  }
}

/// The threads delivering a domain: almost always none or one, several only briefly after a
/// merge of two busy domains. Kept inline so the write path touches no array.
@usableFromInline
struct Drainers {
  @usableFromInline var first: ObjectIdentifier?
  @usableFromInline var more: [ObjectIdentifier] = []

  @usableFromInline init() {}

  @inlinable var isEmpty: Bool { first == nil }
  var count: Int { first == nil ? 0 : 1 + more.count }

  @inlinable
  mutating func append(_ id: ObjectIdentifier) {
    if first == nil { first = id } else { more.append(id) }
  }

  mutating func append(contentsOf other: Drainers) {
    if let id = other.first { append(id) }
    for id in other.more { append(id) }
  }

  /// Removes one occurrence of `id`.
  @usableFromInline
  mutating func remove(_ id: ObjectIdentifier) {
    if first == id {
      first = more.popLast()
    } else if let index = more.firstIndex(of: id) {
      more.remove(at: index)
    }
  }

  func contains(_ id: ObjectIdentifier) -> Bool { first == id || more.contains(id) }

  /// Whether there is a drainer and every drainer is `id`.
  func allAre(_ id: ObjectIdentifier) -> Bool {
    first == id && more.allSatisfy { $0 == id }
  }
}

/// A unit of work in a domain's queue.
@usableFromInline
enum Event {
  /// A write whose value waits in the source's pending queue; `closesEvent` marks the last
  /// source of a batch (or the only one of a plain write), where delivery may begin.
  case write(AnyNode, closesEvent: Bool)
  /// A topology change, subscription or completion that must happen in delivery order.
  case task(@Sendable () -> Void)
}

extension Domain {
  /// Merges the domains of `nodes` into one and returns its root, unlocked.
  ///
  /// - Complexity: O(number of domains absorbed so far) for each merge that happens.
  @usableFromInline package static func merged(_ domains: [Domain]) -> Domain {
    var root = domains[0]
    for other in domains.dropFirst() { root = union(root, other) }
    return root
  }

  static func union(_ first: Domain, _ second: Domain) -> Domain {
    while true {
      let a = first.lockRoot()
      a.lock.unlock()
      let b = second.lockRoot()
      b.lock.unlock()
      if a === b { return a }
      // Lock both roots in a global order, then check neither was merged meanwhile.
      let (low, high) = ObjectIdentifier(a) < ObjectIdentifier(b) ? (a, b) : (b, a)
      low.lock.lock()
      high.lock.lock()
      guard low.forward == nil, high.forward == nil else {
        high.lock.unlock()
        low.lock.unlock()
        continue
      }
      // The domain with more history survives, so fewer nodes take the extra hop.
      let (survivor, loser) = a.absorbed.count >= b.absorbed.count ? (a, b) : (b, a)
      loser.forward = survivor
      for absorbed in loser.absorbed {
        absorbed.lock.lock()
        absorbed.forward = survivor
        absorbed.lock.unlock()
      }
      survivor.absorbed.append(loser)
      survivor.absorbed.append(contentsOf: loser.absorbed)
      loser.absorbed = []
      survivor.drainers.append(contentsOf: loser.drainers)
      loser.drainers = Drainers()
      survivor.queue.append(contentsOf: &loser.queue)
      survivor.unsettled += loser.unsettled
      survivor.writeCount &+= loser.writeCount
      loser.unsettled = 0
      survivor.reentrantWrites += loser.reentrantWrites
      high.lock.unlock()
      low.lock.unlock()
      return survivor
    }
  }
}

/// The engine's tunables and entry points that are not tied to one node.
public enum Engine {
  /// How many writes sinks may queue back into a domain during one delivery before the engine
  /// stops with a precondition failure instead of looping forever.
  ///
  /// A sink that writes a value it observes (directly or through derived values) is legal and
  /// common; a sink that never stops doing so is a bug that would otherwise hang the program.
  public static let reentrancyLimit = 100_000
}
