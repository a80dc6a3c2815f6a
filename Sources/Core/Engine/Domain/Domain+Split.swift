#if canImport(InvalidatingPrimitives)
  import InvalidatingPrimitives
#endif

// Domains that follow the live graph: merging what a node joins, counting the links that hold
// each merge together, and cutting a merge off once nothing crosses it.
//
// The domains form a union–find forest: a merged domain forwards to the one it was merged
// into, and the root of each tree is the domain whose lock, queue and drainer role the whole
// tree shares. A node's links (to its inputs) *span* the smallest subtree that holds its home
// and its inputs' homes: the edges on the paths from each of them up to their lowest common
// ancestor, the *top*. Each edge counts the nodes whose span crosses it (`joinCount`, on the
// domain below the edge). A node counts its span from the moment it takes its inputs (made,
// or relinked to new ones) to the moment it lets them go (freed, or relinked away); a
// suspended node keeps its inputs, so it keeps counting. An edge whose count falls to zero
// joins nothing any more: it is cut, and the part of the tree below it is a tree of its own.
//
// What keeps it simple:
// - A merge only adds edges above roots and a split only removes edges no span crosses, so
//   the paths a node counted stand still while it counts them, and can be walked again to
//   let them go. Its top is the lowest common ancestor of its domains, found again then.
// - A node is homed at its top, not at the root, so it holds only the edges it spans.
// - Trees of one domain each are joined under a new, empty domain (a junction), never one
//   under the other: so a source's domain never has others forwarding to it, and no span runs
//   through the domain of a source it does not read. (Otherwise a node over `b` and `c`,
//   joined after `a` and `b` were, would run through `a`'s domain, and keep `a` coupled to
//   them after what joined `a` and `b` was gone.) A larger tree's root is always a junction.
// - Counting happens in the critical section that merges (every root involved locked), so
//   no split can come between a merge and the count that holds it.
// - A split happens only while the root is quiet (no change queued, no thread waiting, no
//   delivery under way, no write unsettled): then nothing but the tree's shape moves. It runs
//   under the root's lock, then the cut domain's; a domain that is not a root is never held
//   while its root's lock is waited for, so the order cannot deadlock.
// - Where a node's links are all within its home (every `map`, every graph of one domain),
//   nothing is counted or walked.
//
// Cost: a join or a release walks the span, a split the cut domain's path to the root, each
// under one lock. Union by size keeps paths within log2 of a tree's size while it only grows;
// a split never lengthens a path, but shrinks the tree it leaves, so a program that joins and
// cuts the same domains in a pattern built to do so can grow a path up to the number of
// domains in the tree (with a quadratic number of joins). Paths cost nothing on the fast paths
// of a root; a domain that forwards pays one lock per hop on each lock of its root.

extension Domain {
  /// Lets go of the span that `node`, whose inputs do not all share its home, counted (see
  /// `join(from:_:)`), and cuts off what no span crosses any more once the root is quiet.
  static func releaseSpan(of node: AnyNode) {
    releaseSpan(from: node.home, node.inputs)
  }

  /// Lets go of the span of `start` and `inputs`' homes that `join(from:_:)` counted, and cuts
  /// off what no span crosses any more once the root is quiet.
  static func releaseSpan<Inputs: Collection<AnyNode>>(from start: Domain, _ inputs: Inputs) {
    let walk = ThreadContext.current.takeUniqueIdentity()
    let root = start.lockRoot()
    if root === start && root.releaseSpanOneLevel(inputs, walk: walk) {
      root.lock.unlock()
      return
    }
    let hadCandidates = !root.splitCandidates.isEmpty
    _ = root.countSpan(from: start, inputs, by: -1, walk: walk)
    let cut = root.splitIfQuiet(hadCandidates: hadCandidates)
    root.lock.unlock()
    withExtendedLifetime(cut) {}  // the domains cut off are let go outside the lock
  }

  /// `releaseSpan(from:_:)` where the span is one level deep and the root quiet, the common
  /// case of a node over a few sources of their own (a view model's computed properties): the
  /// node is homed at this root (its lock held), and each input's home is the root or merged
  /// straight into it. Each edge is let go and, at zero, cut at once, with no candidate listed,
  /// sorted or released later: what a cut lets go is this root's reference, and the caller's
  /// node holds the root. Returns `false`, having changed nothing, when the case is another.
  private func releaseSpanOneLevel<Inputs: Collection<AnyNode>>(
    _ inputs: Inputs, walk: UInt64
  ) -> Bool {
    assertLockedRoot()
    guard splitCandidates.isEmpty && role.isFree && unsettled == 0 else { return false }
    let root = Unmanaged.passUnretained(self)
    for input in inputs {
      let home = Unmanaged.passUnretained(input.home)
      guard
        home.toOpaque() == root.toOpaque()
          || home._withUnsafeGuaranteedRef({ $0.forwardUnretained?.toOpaque() }) == root.toOpaque()
      else { return false }
    }
    var didCut = false
    for input in inputs {
      Unmanaged.passUnretained(input.home)._withUnsafeGuaranteedRef { edge in
        guard edge !== self && edge.spanMark != walk else { return }
        edge.spanMark = walk
        edge.joinCount -= 1
        #if DEBUG
          Engine.check(edge.joinCount >= 0, "an edge let go by more links than crossed it")
        #endif
        guard edge.joinCount == 0 else { return }
        _ = cutOff(edge)
        didCut = true
      }
    }
    #if DEBUG
      recordSpan(of: inputs.map(\.home), counted: false)
    #endif
    if didCut { finishCuts() }
    return true
  }

  /// Adds `delta` to the count of every edge of the span of `start` and `inputs`' homes (see
  /// `join(from:_:)`), in this root's tree (its lock held), and returns their lowest common
  /// ancestor; an edge left at zero becomes a candidate for a split. `walk`, unique to this
  /// call, marks the domains it passed, so that an edge on the paths of several of them counts
  /// once.
  ///
  /// The walks hold the domains unowned: under the root's lock no edge of the tree is cut, and
  /// each chain is kept alive by the domain it starts from, which the caller holds.
  func countSpan<Inputs: Collection<AnyNode>>(
    from start: Domain?, _ inputs: Inputs, by delta: Int, walk: UInt64
  ) -> Domain {
    assertLockedRoot()
    var top = Unmanaged.passUnretained(start ?? inputs.first.unsafelyUnwrapped.home)
    for input in inputs {
      top = Self.lowestCommonAncestor(top, Unmanaged.passUnretained(input.home))
    }
    if let start { count(from: Unmanaged.passUnretained(start), to: top, by: delta, walk: walk) }
    for input in inputs {
      count(from: Unmanaged.passUnretained(input.home), to: top, by: delta, walk: walk)
    }
    #if DEBUG
      var domains: [Domain] = []
      Self.forEachDomain(from: start, inputs) { domains.append($0) }
      top.takeUnretainedValue().recordSpan(of: domains, counted: delta > 0)
    #endif
    return top.takeUnretainedValue()
  }

  /// Adds `delta` to the count of every edge from `domain` up to `top`, stopping at a domain
  /// this walk passed already (see `countSpan`).
  @inline(__always)
  private func count(
    from domain: Unmanaged<Domain>, to top: Unmanaged<Domain>, by delta: Int, walk: UInt64
  ) {
    var edge = domain
    while edge.toOpaque() != top.toOpaque() {
      let next = edge._withUnsafeGuaranteedRef { edge -> Unmanaged<Domain>? in
        guard edge.spanMark != walk else { return nil }
        edge.spanMark = walk
        edge.joinCount += delta
        #if DEBUG
          Engine.check(edge.joinCount >= 0, "an edge let go by more links than crossed it")
        #endif
        if edge.joinCount == 0 { splitCandidates.append(edge) }
        return edge.forwardUnretained
      }
      guard let next else { return }
      edge = next
    }
  }

  /// The lowest domain that both `first` and `second` forward to (or are); both are of one
  /// tree, whose root's lock the caller holds.
  private static func lowestCommonAncestor(
    _ first: Unmanaged<Domain>, _ second: Unmanaged<Domain>
  ) -> Unmanaged<Domain> {
    var (first, second) = (first, second)
    if first.toOpaque() == second.toOpaque() { return first }
    var (firstDepth, secondDepth) = (depth(of: first), depth(of: second))
    while firstDepth > secondDepth {
      first = first.parent
      firstDepth -= 1
    }
    while secondDepth > firstDepth {
      second = second.parent
      secondDepth -= 1
    }
    while first.toOpaque() != second.toOpaque() {
      first = first.parent
      second = second.parent
    }
    return first
  }

  /// How many edges lead from `domain` to its root, whose lock the caller holds.
  private static func depth(of domain: Unmanaged<Domain>) -> Int {
    var count = 0
    var domain = domain
    while let next = domain._withUnsafeGuaranteedRef({ $0.forwardUnretained }) {
      count += 1
      domain = next
    }
    return count
  }

  /// `forward`, unretained: for walks under the root's lock, in which no edge is cut and every
  /// domain of a chain is kept alive by the one below it.
  @inline(__always)
  var forwardUnretained: Unmanaged<Domain>? {
    guard let forward else { return nil }
    return Unmanaged.passUnretained(forward)
  }
}

extension Unmanaged<Domain> {
  /// The domain this one forwards to, which it must (see `Domain.forwardUnretained`).
  @inline(__always)
  fileprivate var parent: Unmanaged<Domain> {
    _withUnsafeGuaranteedRef { $0.forwardUnretained.unsafelyUnwrapped }
  }
}

extension Domain {
  /// Whether this domain's forwarding chain leads to a domain that `isHeld` (whose lock the
  /// caller holds; this domain's and the others on the way it does not). Each domain on the way
  /// is locked without waiting, one at a time; `false` when one is busy, or the chain ends at
  /// another root (see `lockForwardedRoot()`).
  @inline(__always)
  func reaches(_ isHeld: (Domain) -> Bool) -> Bool {
    var domain = self
    // A chain is acyclic at any moment, but read hop by hop while other trees change, it could
    // in principle seem to go round: bounded, and started again.
    for _ in 0..<4_096 {
      if isHeld(domain) { return true }
      // Held for a few loads by a walk like this one, as a rule: tried again a few times before
      // the caller lets go of its root and starts again.
      var tries = 0
      while !domain.lock.tryLock() {
        tries += 1
        if tries == 64 { return false }
      }
      let next = domain.forward
      domain.lock.unlock()
      guard let next else { return false }
      domain = next
    }
    return false
  }

  /// What to do once edges may have fallen to zero in this root's tree (its lock held):
  /// nothing if none did; cut them off now if the root is quiet and its role free (a free
  /// role means no change queued and no thread waiting; no write may be unsettled, since a
  /// batch on another thread counts its writes on one side or the other); otherwise make sure
  /// the drainer looks again when it finishes, with a change that does nothing (unless one was
  /// queued for earlier candidates), or leave it to the commit that settles the last write.
  /// Returns the domains to let go once unlocked.
  func splitIfQuiet(hadCandidates: Bool) -> [Domain] {
    guard !splitCandidates.isEmpty else { return [] }
    if role.isFree {
      return unsettled == 0 ? splitZeroEdges() : []
    }
    if !hadCandidates { queue.append(.task(Engine.lookAgain, depth: 0)) }
    return []
  }

  /// At the end of a commit (this root's lock held, by its drainer): drops the catching-up
  /// records the commit caught up, and once no write is unsettled, makes the drainer look at
  /// pending splits when it finishes (`splitIfQuiet`). Behind the one flag `hasCommitWork`.
  func finishCommit() {
    if !catchingUpNodes.isEmpty { dropCaughtUpRecords() }
    if unsettled == 0 && !splitCandidates.isEmpty {
      queue.append(.task(Engine.lookAgain, depth: 0))
    }
  }

  /// Whether the drainer finishing now (the only one, its lock held, the queue empty) must cut
  /// edges off first: some are pending and no write is unsettled.
  var mustSplitBeforeLeaving: Bool {
    hasCommitWork && !splitCandidates.isEmpty && unsettled == 0 && role.drainers.count == 1
      && queue.isEmpty
  }

  /// Cuts off every domain of this root's tree whose edge no span crosses: deepest first, so
  /// that each is cut while its path to the root still stands. Call with the root's lock held,
  /// while it is quiet (see `splitIfQuiet`): there is no change, no waiting thread and no
  /// unsettled write to share out, only the tree's shape, the sizes along each cut path, and
  /// the write count, which the part cut off starts from (its nodes' stamps stay valid: the
  /// count only grows). Returns the domains to let go once unlocked.
  func splitZeroEdges() -> [Domain] {
    assertLockedRoot()
    // The candidates, and the domains the cuts let go, are released once the lock is.
    var released: [Domain] = []
    swap(&released, &splitCandidates)
    // Each once (marked, as a walk marks a span: a list of thousands is cut in one pass), and
    // only those still at zero (a link may cross one again since).
    let pass = ThreadContext.current.takeUniqueIdentity()
    var cuts: [(domain: Domain, depth: Int)] = []
    cuts.reserveCapacity(released.count)
    for candidate in released where candidate.joinCount == 0 && candidate.spanMark != pass {
      candidate.spanMark = pass
      cuts.append(
        (candidate, released.count == 1 ? 0 : Self.depth(of: Unmanaged.passUnretained(candidate))))
    }
    if cuts.count > 1 { cuts.sort { $0.depth > $1.depth } }
    released.reserveCapacity(released.count + cuts.count)
    for (cut, _) in cuts { released.append(cutOff(cut)) }
    if !cuts.isEmpty { finishCuts() }
    return released
  }

  /// After `cutOff` cut one domain or more off this root's tree: counts the split (once, for
  /// all of them) and, in debug builds, checks the counts of what is left.
  private func finishCuts() {
    SplitCount.increment()
    #if DEBUG
      if Engine.checksInvariants && mergedCount < Self.checkedTreeSize {
        checkJoinCounts(quiet: true)
      }
    #endif
  }

  /// Cuts `cut`, a domain of this root's tree whose edge no span crosses, off the tree (this
  /// root quiet, its lock held; see `splitZeroEdges`): the sizes on its path shrink by its
  /// subtree's, the nodes catching up below it go with it, and it starts from this root's write
  /// count. Returns the domain it forwarded to, whose reference it held, for the caller to let
  /// go (once unlocked, unless the caller holds it too). The caller counts the split
  /// (`finishCuts()`).
  private func cutOff(_ cut: Domain) -> Domain {
    let size = cut.mergedCount + 1
    var above = Unmanaged.passUnretained(cut).parent
    while true {
      above._withUnsafeGuaranteedRef { $0.mergedCount -= size }
      guard let next = above._withUnsafeGuaranteedRef({ $0.forwardUnretained }) else { break }
      above = next
    }
    // Nodes catching up go with their side (a quiet root has none: every write is delivered,
    // and the commit that delivered the last dropped them).
    var moved: [AnyNode] = []
    if !catchingUpNodes.isEmpty {
      catchingUpNodes.removeAll { node in
        guard cut.isAncestor(ofOrSame: node.home) else { return false }
        moved.append(node)
        return true
      }
    }
    cut.lock.lock()
    let parent = cut.forward.unsafelyUnwrapped
    #if DEBUG
      parent.debugChildren[ObjectIdentifier(cut)] = nil
    #endif
    cut.forward = nil
    #if DEBUG
      // A stamp never goes back for the nodes of either side (see `isPulledValueCurrent`).
      Engine.check(cut.writeCount <= writeCount, "a domain split off would count back")
    #endif
    cut.writeCount = writeCount
    if !moved.isEmpty || !cut.catchingUpNodes.isEmpty { cut.catchingUpNodes = moved }
    #if DEBUG
      Engine.check(
        cut.role.state == .free && cut.role.violation == nil,
        "a domain that forwarded had a role, waiting threads or a closing flag")
      if Engine.checksInvariants && cut.mergedCount < Self.checkedTreeSize {
        cut.checkJoinCounts(quiet: true)
      }
    #endif
    cut.lock.unlock()
    return parent
  }

  /// Whether `domain` is this domain or forwards to it; both of the tree whose root's lock the
  /// caller holds.
  private func isAncestor(ofOrSame domain: Domain) -> Bool {
    var current = domain
    while current !== self {
      guard let next = current.forward else { return false }
      current = next
    }
    return true
  }
}

/// The process-wide count of splits (`invalidating_split_count` in `Sources/Primitives`): a walk
/// up a forwarding chain that reads the same count before it starts and once it holds the root
/// knows that no split cut the chain behind it, and need not read the chain again
/// (`Domain.lockForwardedRoot()`).
@usableFromInline
enum SplitCount {
  /// The count (acquire: what a split wrote before counting itself is seen after).
  @inlinable @inline(__always)
  static func load() -> UInt64 {
    #if canImport(InvalidatingPrimitives)
      invalidating_split_count_load()
    #else
      fallbackLock.lock()
      defer { fallbackLock.unlock() }
      return fallback
    #endif
  }

  /// Counts a split, holding its root's lock, after it cut what it cut.
  static func increment() {
    #if canImport(InvalidatingPrimitives)
      invalidating_split_count_increment()
    #else
      fallbackLock.lock()
      fallback &+= 1
      fallbackLock.unlock()
    #endif
  }

  #if !canImport(InvalidatingPrimitives)
    // Where the C module is not on the import path (scripts/check-apple-glue type-checks this
    // module alone), a locked count stands in.
    @usableFromInline static let fallbackLock = Lock()
    @usableFromInline nonisolated(unsafe) static var fallback: UInt64 = 0
  #endif
}

extension Engine {
  /// A change that does nothing, queued so that a drainer that would otherwise leave by the
  /// fast path goes through `drainQueue`, whose end cuts off what no link crosses any more.
  static let lookAgain: @Sendable () -> Void = {}
}

extension AnyNode {
  /// Whether every input is homed where this node is: then its links span no edge, and neither
  /// making nor freeing it counts anything (see `Domain.join`).
  @inline(__always)
  final var inputsShareHome: Bool {
    for input in inputs where input.home !== home { return false }
    return true
  }
}
