// What a new subscriber started from: its first value (`FirstValue`) and, when that is newer
// than what its node delivered so far, its catching-up record and the sources it read beyond
// the node's links.

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
  /// The sources that the first value read beyond the node's links (through branches, or
  /// inner properties, that the newest writes select and the delivered value does not follow
  /// yet), each with the write it read. Held: nothing else need keep them alive, and once the
  /// node's deliveries take those branches they read them at their delivered writes, which may
  /// be older. They are let go outside the lock (see `Domain.dropCaughtUpRecords`).
  @usableFromInline let readBeyondLinks: [SourceRead]

  @usableFromInline
  init(
    id: UInt64, upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)],
    readBeyondLinks: [SourceRead] = []
  ) {
    self.id = id
    self.upstream = upstream
    self.readBeyondLinks = readBeyondLinks
  }

  /// Whether every source listed has delivered the write the subscription started from
  /// (`caughtUp`), and whether each has delivered exactly that one (`same`: the state the
  /// first value came from). Lock of `home`'s root, `home` being the node's home domain.
  ///
  /// A source read beyond the links in another domain is waited for once a join has brought it
  /// into this one: its writes queued there are delivered here from then on, the older ones
  /// first. Until then its deliveries are not this domain's to wait for. Its state is the one
  /// the first value came from only while it has no newer write at all: a delivered run reads a
  /// node of another domain at its newest write, so the change it delivers, the one that joins
  /// the domains included, may have read a newer write than the first value did, though none
  /// was delivered.
  func progress(home: Domain) -> (caughtUp: Bool, same: Bool) {
    var caughtUp = true
    var same = true
    for (source, seq) in upstream {
      let delivered = source._withUnsafeGuaranteedRef { $0.writes.delivered }
      if delivered < seq { caughtUp = false }
      if delivered != seq { same = false }
    }
    guard !readBeyondLinks.isEmpty else { return (caughtUp, same) }
    var root: Domain?
    for read in readBeyondLinks {
      if !read.inTree {
        let treeRoot = root ?? home.rootWhileLocked
        root = treeRoot
        guard read.source.home.reaches({ $0 === treeRoot }) else {
          if same { same = read.hasNoNewerWrite(outside: treeRoot) }
          continue
        }
      }
      // Read at its newest write or change (another domain's, or a derived value as its
      // domain had it, wherever that domain is now): the state it was read in only while
      // nothing newer came. A derived value has nothing of its own to wait for.
      if (!read.inTree || read.isDerived) && read.newest != read.seq { same = false }
      guard !read.isDerived else { continue }
      let delivered = read.source.writes.delivered
      if delivered < read.seq { caughtUp = false }
      if delivered != read.seq { same = false }
    }
    return (caughtUp, same)
  }
}

/// What a subscriber that is not the drainer started from (see
/// `ValueNode.subscribeWhileOthersDeliver`).
@usableFromInline
struct FirstValue<Value>: @unchecked Sendable {
  // Safe: created and read under the domain's rules by the subscription it belongs to; the
  // sources of `upstream` are kept alive by the node they are upstream of, those read beyond
  // its links by this value.
  @usableFromInline let value: Value
  @usableFromInline let upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)]?
  /// The sources it read beyond the node's links (see `CatchUpRecord`), and the splits in the
  /// process when they were read (see `SourceReadLog`).
  @usableFromInline let readBeyondLinks: [SourceRead]
  @usableFromInline let splits: UInt64
  @usableFromInline let changeCount: UInt64
  /// Whether the value is one the domain delivered, or computed from the newest writes while
  /// none landed (`upstream` says which); `false` for the value a node was made with while
  /// others delivered, before its attachment computed it again.
  @usableFromInline let isDelivered: Bool

  @usableFromInline
  init(
    value: Value, upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)]?,
    readBeyondLinks: [SourceRead] = [], splits: UInt64 = 0,
    changeCount: UInt64, isDelivered: Bool = true
  ) {
    self.value = value
    self.upstream = upstream
    self.readBeyondLinks = readBeyondLinks
    self.splits = splits
    self.changeCount = changeCount
    self.isDelivered = isDelivered
  }
}

/// Where a drainer leaves a new subscriber's first value for the subscriber's thread, which
/// waits on `parker` (see `ValueNode.deliveredValueInOrder`).
final class FirstValueHandOff<Value>: @unchecked Sendable {
  // Safe: `value` is written by the drainer before it unparks `parker`, and read by the
  // waiting thread after `park()` returns; the parker's mutex orders the two.
  let parker = Parker()
  var value: FirstValue<Value>?
}

/// A source that a new subscriber's first value read beyond its node's links, the write it
/// read (its sequence number), and whether it was in the node's domain then (see
/// `SourceReadLog.readsBeyond`). Merges only add to a domain, and a domain with a catching-up
/// record is not split, so a source in the domain stays there for as long as the record.
///
/// A derived value of another domain is read as that domain has it (delivered or cached), and
/// the sources behind it are not noted: it is listed itself (`isDerived`), with its change
/// count for `seq`, so that a delivery is taken for the first value's repeat only while it has
/// not changed either.
@usableFromInline
struct SourceRead {
  @usableFromInline let source: AnyNode
  @usableFromInline let seq: UInt64
  /// Whether the source was known to be of the node's domain when the record was made; if not,
  /// each look at the record asks again (`CatchUpRecord.progress(home:)`).
  @usableFromInline let inTree: Bool
  /// Whether `source` is a derived node, and `seq` its change count.
  @usableFromInline let isDerived: Bool

  /// This read, of a domain no longer known: a split happened since it was noted.
  var afterSplit: SourceRead {
    SourceRead(source: source, seq: seq, inTree: false, isDerived: isDerived)
  }

  /// The source's newest write, or the derived node's change count. Lock.
  var newest: UInt64 { isDerived ? source.changeCount : source.writes.count }

  /// Whether the source, of another tree than `root`'s (its lock held), has had no write (or
  /// change) since this read; `false` if its root is busy (it is not waited for: see
  /// `Domain.tryLockRoot()`).
  func hasNoNewerWrite(outside root: Domain) -> Bool {
    root.assertLockedRoot()
    guard let sourceRoot = source.home.tryLockRoot() else { return false }
    defer { sourceRoot.lock.unlock() }
    return newest == seq
  }
}

/// The sources that a new subscriber's first value read, each with the write it read and the
/// root domain it was read under (see `ThreadContext.sourceReads`, `ValueNode.read(_:)`).
///
/// A first value is computed from the newest writes, through whichever branches they select;
/// the node's links follow the branches its delivered value took. Its catching-up record lists
/// the sources it read beyond those links too, so that no delivery older than it in any of
/// them reaches the subscriber.
///
/// Only what the value was computed from counts: each read is noted with the node whose
/// computation made it, and so is each read of a derived node, and the record takes the reads
/// of the computations that the first value's own reaches. A pull computes a node's stale
/// inputs before the node, and a branch the newest writes no longer select (a linked input
/// the computation then does not read) would otherwise list sources the value does not
/// follow, whose next delivery would not be taken for the first value's repeat.
@usableFromInline
package final class SourceReadLog {
  /// Each read: the source, or the derived node of another tree (`isDerived`), the write or
  /// change count it was read at, the root it was read under, and the node whose computation
  /// read it (`nil`: none, the first value's own read).
  private var reads:
    [(source: AnyNode, seq: UInt64, root: Domain, isDerived: Bool, by: ObjectIdentifier?)] = []
  /// The derived nodes each computation read (`by` as in `reads`), whose reads are the
  /// reader's too.
  private var derivedReads: [(by: ObjectIdentifier?, read: ObjectIdentifier)] = []
  /// Splits anywhere in the process when logging began: if there was none since, a source read
  /// under a root is still in that root's tree (merges only add to a tree).
  let splits = SplitCount.load()
  /// The root of the node whose first value is computed, when logging began.
  @usableFromInline let root: Domain
  /// The node whose first value is computed.
  let node: ObjectIdentifier

  init(root: Domain, node: AnyNode) {
    self.root = root
    self.node = ObjectIdentifier(node)
  }

  /// The nodes computed again while logging: each once, as a pull computes each once (a
  /// layered graph read along every path through it would be computed exponentially often).
  @usableFromInline var computed: Set<ObjectIdentifier> = []

  /// Whether a pull noting its reads computes `node` again rather than take its cached value,
  /// whose reads would not be noted: once each, in any domain. (A derived node of another
  /// tree whose value is the one its domain delivered is read as such, not computed: see
  /// `noteDerivedRead`.)
  @inlinable
  func recomputes(_ node: AnyNode) -> Bool {
    !computed.contains(ObjectIdentifier(node))
  }

  /// Notes that `source`, of the tree of `root`, was read at its write `seq` by the computation
  /// under way on `context`.
  func note(_ source: AnyNode, seq: UInt64, root: Domain, _ context: ThreadContext) {
    reads.append((source, seq, root, false, context.computation.nodes.last))
  }

  /// What `endDerivedRead(_:_:_:)` needs from before the read of a derived node: its root then,
  /// and its change count.
  struct DerivedRead {
    let root: Domain
    let changeCount: UInt64
  }

  /// Begins a read of `node`, a derived node, by the computation under way on `context`:
  /// notes the read, whose reads are the reader's.
  func beginDerivedRead(_ node: AnyNode, _ context: ThreadContext) -> DerivedRead {
    derivedReads.append((context.computation.nodes.last, ObjectIdentifier(node)))
    // The change count before the value: a change in between makes the record see a newer
    // count, never take an older value for the state it was read at.
    return node.withRootLocked { nodeRoot in
      defer { nodeRoot.lock.unlock() }
      return DerivedRead(root: nodeRoot, changeCount: node.changeCount)
    }
  }

  /// Ends the read of `node` that `begin` began. A node of another tree that was not computed
  /// here (its domain's delivered value, with nothing on its way there) is listed itself, with
  /// its change count, since its sources are not noted: a delivery is taken for the first
  /// value's repeat only while it has not changed. One computed here is not: the sources its
  /// computation read stand for it (its change count would move when its domain delivers the
  /// writes the value already holds).
  func endDerivedRead(_ node: AnyNode, _ begin: DerivedRead, _ context: ThreadContext) {
    guard begin.root !== root, !computed.contains(ObjectIdentifier(node)) else { return }
    reads.append((node, begin.changeCount, begin.root, true, context.computation.nodes.last))
  }

  /// The sources read beyond `upstream`, each with the newest write it was read at, and
  /// whether it was read under `root` (its lock held) with no split since logging began: then it
  /// is of `root`'s tree. The others are read under another root, or may have left `root`'s
  /// tree in a split; the record asks again whether they are of the node's domain each time it
  /// is looked at (see `CatchUpRecord.progress(home:)`).
  func readsBeyond(
    _ upstream: [(source: Unmanaged<AnyNode>, seq: UInt64)], ofTreeOf root: Domain
  ) -> [SourceRead] {
    root.assertLockedRoot()
    guard !reads.isEmpty else { return [] }
    let noSplit = SplitCount.load() == splits
    let linked = Set(upstream.map { ObjectIdentifier($0.source.takeUnretainedValue()) })
    let reached = computationsReached()
    var beyond: [ObjectIdentifier: Int] = [:]
    var result: [SourceRead] = []
    for (source, seq, readRoot, isDerived, by) in reads {
      guard by.map(reached.contains) ?? true else { continue }
      let key = ObjectIdentifier(source)
      guard !linked.contains(key) else { continue }
      let inTree = noSplit && readRoot === root
      if let index = beyond[key] {
        let earlier = result[index]
        result[index] = SourceRead(
          source: source, seq: max(earlier.seq, seq), inTree: earlier.inTree || inTree,
          isDerived: isDerived)
      } else {
        beyond[key] = result.count
        result.append(SourceRead(source: source, seq: seq, inTree: inTree, isDerived: isDerived))
      }
    }
    return result
  }

  /// The nodes whose computations the first value was computed from: its node's, and those of
  /// the derived nodes they read, transitively.
  private func computationsReached() -> Set<ObjectIdentifier> {
    var readBy: [ObjectIdentifier?: [ObjectIdentifier]] = [:]
    for (by, read) in derivedReads { readBy[by, default: []].append(read) }
    // Reads made outside any computation (`nil`) are the first value's own.
    var work = [node] + (readBy[nil] ?? [])
    var reached = Set(work)
    while let reader = work.popLast() {
      for read in readBy[reader] ?? [] where reached.insert(read).inserted { work.append(read) }
    }
    return reached
  }
}

extension ThreadContext {
  /// Runs `body`, which computes a new subscriber's first value, noting every source it reads
  /// (see `SourceReadLog`); pulls inside it compute the values of `root`'s tree again rather
  /// than take cached ones, whose reads would not be noted.
  func loggingSourceReads<Result>(
    of node: AnyNode, in root: Domain, _ body: () -> Result
  ) -> (Result, SourceReadLog) {
    let log = SourceReadLog(root: root, node: node)
    let outer = sourceReads
    sourceReads = log
    let result = body()
    sourceReads = outer
    return (result, log)
  }

  /// Whether this thread computes a first value whose reads it notes, and so computes `node`
  /// again rather than take its cached value (see `SourceReadLog`).
  @inlinable @inline(__always)
  func recomputesForSourceReads(_ node: AnyNode) -> Bool {
    guard _slowPath(sourceReads != nil) else { return false }
    return sourceReads.unsafelyUnwrapped.recomputes(node)
  }

  /// `recomputesForSourceReads(_:)` of the calling thread's context, without making a context
  /// for a thread that has none (which notes no reads), and inlined: a read of a cached value
  /// asks it.
  @inlinable @inline(__always)
  static func recomputesForSourceReads(_ node: AnyNode) -> Bool {
    guard let context = existing else { return false }
    return context._withUnsafeGuaranteedRef { $0.recomputesForSourceReads(node) }
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
  /// `read(.latest)` while the thread notes a first value's reads (see `SourceReadLog`).
  @usableFromInline
  final func readNotingSources() -> Value {
    if isSource { return latestNotingRead() }
    let context = ThreadContext.current
    guard let log = context.sourceReads else { return currentValue() }
    let begin = log.beginDerivedRead(self, context)
    let value = currentValue()
    log.endDerivedRead(self, begin, context)
    return value
  }

  /// A source's newest write, noted in the thread's `SourceReadLog` with its sequence number.
  @usableFromInline
  final func latestNotingRead() -> Value {
    let root = home.lockRoot()
    let value = unsafeDowncast(self, to: SourceNode<Value>.self).latest
    let seq = writes.count
    root.lock.unlock()
    let context = ThreadContext.current
    context.sourceReads?.note(self, seq: seq, root: root, context)
    return value
  }
}
