// What a new subscriber started from, when that is newer than what its node delivered so far:
// its catching-up record, and the sources its first value read beyond the node's links.

/// A subscription that started from a value newer than the one its node delivered so far (see
/// `ValueNode.catchingUp`): until every source it lists has delivered the write the first value
/// reflects, a change delivered to it would be older than what it has, so it skips it.
@usableFromInline
struct CatchUpRecord {
  /// The subscription.
  @usableFromInline let id: UInt64
  /// The sources upstream of the node through its links, and their newest write's sequence
  /// number when the first value was computed. The node keeps them alive.
  @usableFromInline let upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)]
  /// The sources of the node's domain that the first value read beyond its links (through
  /// branches, or inner properties, that the newest writes select and the delivered value does
  /// not follow yet), each with the write it read. Held: nothing else need keep them alive,
  /// and once the node's deliveries take those branches they read them at their delivered
  /// writes, which may be older. They are let go outside the lock (see
  /// `Domain.dropCaughtUpRecords`).
  @usableFromInline let readBeyondLinks: [(source: AnyNode, seq: UInt64)]

  @usableFromInline
  init(
    id: UInt64, upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)],
    readBeyondLinks: [(source: AnyNode, seq: UInt64)] = []
  ) {
    self.id = id
    self.upstream = upstream
    self.readBeyondLinks = readBeyondLinks
  }

  /// Whether every source listed has delivered the write the subscription started from
  /// (`caughtUp`), and whether each has delivered exactly that one (`same`: the state the
  /// first value came from). Lock: every source listed is of the locked domain.
  func progress() -> (caughtUp: Bool, same: Bool) {
    var caughtUp = true
    var same = true
    for (source, seq) in upstream {
      let delivered = source._withUnsafeGuaranteedRef { $0.writes.delivered }
      if delivered < seq { caughtUp = false }
      if delivered != seq { same = false }
    }
    for (source, seq) in readBeyondLinks {
      let delivered = source.writes.delivered
      if delivered < seq { caughtUp = false }
      if delivered != seq { same = false }
    }
    return (caughtUp, same)
  }
}

/// The sources that a new subscriber's first value read, each with the write it read and the
/// root domain it was read under (see `ThreadContext.sourceReads`, `ValueNode.read(_:)`).
///
/// A first value is computed from the newest writes, through whichever branches they select;
/// the node's links follow the branches its delivered value took. Its catching-up record lists
/// the sources it read beyond those links too, so that no delivery older than it in any of
/// them reaches the subscriber.
@usableFromInline
package final class SourceReadLog {
  private var reads: [(source: AnyNode, seq: UInt64, root: Domain)] = []
  /// Splits anywhere in the process when logging began: if there was none since, a source read
  /// under a root is still in that root's tree (merges only add to a tree).
  let splits = SplitCount.load()
  /// The root of the node whose first value is computed, when logging began: pulls compute its
  /// values again rather than take cached ones, whose reads would not be noted. Values of other
  /// domains are taken as cached: their sources are not listed anyway, and a value computed in
  /// a pull is cached at the stamp of the pulled node's domain, which those do not share.
  @usableFromInline let root: Domain

  init(root: Domain) { self.root = root }

  /// The nodes computed again while logging: each once, as a pull computes each once (a
  /// layered graph read along every path through it would be computed exponentially often).
  @usableFromInline var computed: Set<ObjectIdentifier> = []

  /// Whether a pull noting its reads computes `node`, of `root`'s tree, again rather than take
  /// its cached value.
  @inlinable
  func recomputes(_ node: AnyNode, in root: Domain) -> Bool {
    root === self.root && !computed.contains(ObjectIdentifier(node))
  }

  /// Notes that `source`, of the tree of `root`, was read at its write `seq`.
  func note(_ source: AnyNode, seq: UInt64, root: Domain) {
    reads.append((source, seq, root))
  }

  /// The sources read beyond `upstream` that are of `root`'s tree (its lock held), each with
  /// the newest write it was read at. Reads under another root are left out: the node's
  /// deliveries read those at their newest writes, or, once a relink merges them in, after the
  /// writes queued there before. Empty if a split happened since logging began, as a source
  /// read under `root` may have left its tree.
  func readsBeyond(
    _ upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)], ofTreeOf root: Domain
  ) -> [(source: AnyNode, seq: UInt64)] {
    root.assertLockedRoot()
    guard !reads.isEmpty, SplitCount.load() == splits else { return [] }
    let linked = Set(upstream.map { ObjectIdentifier($0.source.takeUnretainedValue()) })
    var beyond: [ObjectIdentifier: Int] = [:]
    var result: [(source: AnyNode, seq: UInt64)] = []
    for (source, seq, readRoot) in reads where readRoot === root {
      let key = ObjectIdentifier(source)
      guard !linked.contains(key) else { continue }
      if let index = beyond[key] {
        result[index].seq = max(result[index].seq, seq)
      } else {
        beyond[key] = result.count
        result.append((source, seq))
      }
    }
    return result
  }
}

extension ThreadContext {
  /// Runs `body`, which computes a new subscriber's first value, noting every source it reads
  /// (see `SourceReadLog`); pulls inside it compute the values of `root`'s tree again rather
  /// than take cached ones, whose reads would not be noted.
  func loggingSourceReads<Result>(
    in root: Domain, _ body: () -> Result
  ) -> (Result, SourceReadLog) {
    let log = SourceReadLog(root: root)
    let outer = sourceReads
    sourceReads = log
    let result = body()
    sourceReads = outer
    return (result, log)
  }

  /// Whether this thread computes a first value whose reads it notes, and so computes `node`,
  /// of `root`'s tree, again rather than take its cached value (see `SourceReadLog`).
  @inlinable @inline(__always)
  func recomputesForSourceReads(_ node: AnyNode, in root: Domain) -> Bool {
    guard _slowPath(sourceReads != nil) else { return false }
    return sourceReads.unsafelyUnwrapped.recomputes(node, in: root)
  }

  /// Whether the calling thread computes a first value whose reads it notes, without making a
  /// context for a thread that has none.
  @inlinable
  static var notesSourceReads: Bool {
    guard let context = existing else { return false }
    return context._withUnsafeGuaranteedRef { $0.sourceReads != nil }
  }
}

extension ValueNode {
  /// A source's newest write, noted in the thread's `SourceReadLog` with its sequence number.
  @usableFromInline
  final func latestNotingRead() -> Value {
    let root = home.lockRoot()
    let value = unsafeDowncast(self, to: SourceNode<Value>.self).latest
    let seq = writes.count
    root.lock.unlock()
    ThreadContext.current.sourceReads?.note(self, seq: seq, root: root)
    return value
  }
}
