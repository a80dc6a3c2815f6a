// Joins of domains (see `Domain+Split.swift` for the whole picture): a node over inputs of
// several trees merges them into one, counting its span in the critical section that merges,
// so that no split comes between. The common join, of a few roots, skips the lookup
// (`joinRoots`); any other looks the roots up first, and checks them again if a split happened
// meanwhile.

extension Domain {
  /// The home of a node over `inputs`: their shared home, with nothing counted, when every
  /// input has the same; otherwise their domains joined, with the node's span counted (see
  /// `join(from:_:)`).
  @usableFromInline
  package static func home(over inputs: [AnyNode]) -> Domain {
    join(from: nil, inputs)
  }

  /// Merges the trees of `start` (if any) and of the homes of `inputs` into one, counts the
  /// span of a node over them (every edge on the paths from each of them to their lowest
  /// common ancestor), and returns that ancestor: the home of a new node (`start` nil), the
  /// top of a relinked one's span. The node holds the count from then on, and lets it go
  /// (`releaseSpan(of:)`, `countSpan` by -1) when it lets its inputs go. When every domain is
  /// the same, it is returned, and nothing counted.
  ///
  /// Every root involved is locked at once, in address order, each checked to be a root still
  /// before the next is taken, and each domain checked to still reach one of them (a split
  /// may have cut one off since its root was looked up; skipped when no split happened). Then
  /// the smaller trees are merged into the largest and the span is counted, before any lock is
  /// let go: no split can come between.
  ///
  /// - Complexity: O(k × path length) for k domains, plus a retry per concurrent merge or
  ///   split of the same trees.
  static func join<Inputs: Collection<AnyNode>>(from start: Domain?, _ inputs: Inputs) -> Domain {
    let first = start ?? inputs.first.unsafelyUnwrapped.home
    guard inputs.contains(where: { $0.home !== first }) else { return first }
    let walk = ThreadContext.current.takeUniqueIdentity()
    if let top = joinRoots(from: start, inputs, walk: walk) { return top }
    while true {
      let splits = SplitCount.load()
      // The roots, the first domain's first.
      var roots: [Domain] = []
      roots.reserveCapacity(2)
      var seen: Set<ObjectIdentifier> = []  // once there are many: linear search is quadratic
      forEachDomain(from: start, inputs) { domain in
        let root = domain.lockRoot()
        root.lock.unlock()
        if seen.isEmpty {
          if roots.contains(where: { $0 === root }) { return }
          roots.append(root)
          if roots.count == 16 { seen = Set(roots.map(ObjectIdentifier.init)) }
        } else if seen.insert(ObjectIdentifier(root)).inserted {
          roots.append(root)
        }
      }
      #if DEBUG
        Self.runRootLookupHook()
      #endif
      let firstRoot = roots[0]
      if roots.count > 1 { roots.sort { ObjectIdentifier($0) < ObjectIdentifier($1) } }
      guard roots.withUnmanagedElements({ lockRoots($0) }) else { continue }
      // Unless no split happened since the roots were looked up, check each domain still
      // reaches one of them, and each of them is still reached: a domain cut off and merged
      // into another of the roots meanwhile leaves its old root with none of the span, and
      // merging that root would add an edge no span crosses, and no split would cut (issue
      // 26, `MissedSplits`).
      if SplitCount.load() != splits {
        var reached = true
        if seen.isEmpty { seen = Set(roots.map(ObjectIdentifier.init)) }
        var reachedRoots: Set<ObjectIdentifier> = []
        forEachDomain(from: start, inputs) { domain in
          guard reached else { return }
          reached = domain.reaches { candidate in
            guard seen.contains(ObjectIdentifier(candidate)) else { return false }
            reachedRoots.insert(ObjectIdentifier(candidate))
            return true
          }
        }
        guard reached && reachedRoots.count == roots.count else {
          for root in roots { root.lock.unlock() }
          continue
        }
      }
      return roots.withUnmanagedElements {
        merge(lockedRoots: $0, first: firstRoot, from: start, inputs, walk: walk)
      }
    }
  }

  /// `join(from:_:)` where every domain involved is a root and there are at most four (a
  /// computed property over a few sources of their own, or over another's junction): they
  /// are locked as they are, in address order, with no lookup first, and borrowed from a list
  /// on the stack (the inputs keep their homes alive, the caller `start`). `nil`, with nothing
  /// held or changed, when there are more or one of them forwards: the caller looks up their
  /// roots then.
  private static func joinRoots<Inputs: Collection<AnyNode>>(
    from start: Domain?, _ inputs: Inputs, walk: UInt64
  ) -> Domain? {
    let capacity = 4
    return withUnsafeTemporaryAllocation(of: Unmanaged<Domain>.self, capacity: capacity) {
      domains -> Domain? in
      var count = 0
      var fits = true
      forEachDomain(from: start, inputs) { domain in
        let word = Unmanaged.passUnretained(domain)
        guard fits, !domains[..<count].contains(where: { $0.toOpaque() == word.toOpaque() })
        else { return }
        guard count < capacity else {
          fits = false
          return
        }
        domains[count] = word
        count += 1
      }
      guard fits else { return nil }
      let first = domains[0]
      // By address, as every thread locks them (an insertion sort: at most four).
      for index in 1..<count {
        let word = domains[index]
        var slot = index
        while slot > 0 && domains[slot - 1].toOpaque() > word.toOpaque() {
          domains[slot] = domains[slot - 1]
          slot -= 1
        }
        domains[slot] = word
      }
      let roots = UnsafeBufferPointer(rebasing: domains[..<count])
      guard lockRoots(roots) else { return nil }
      return merge(
        lockedRoots: roots, first: first.takeUnretainedValue(), from: start, inputs, walk: walk)
    }
  }

  /// The end of a join: merges `roots`, every root of the span, each locked and each distinct
  /// (by address), `first` the first domain's, into one tree, counts the span, unlocks them
  /// and returns the span's top. The caller keeps the roots alive.
  private static func merge<Inputs: Collection<AnyNode>>(
    lockedRoots roots: UnsafeBufferPointer<Unmanaged<Domain>>, first: Domain, from start: Domain?,
    _ inputs: Inputs, walk: UInt64
  ) -> Domain {
    // The largest tree survives (union by size); on a tie, the first domain's. Domains of
    // their own (trees of one) are joined under a new, empty domain instead, a junction: so
    // the domain of a source never has others forwarding to it, and a node that joins two
    // sources never ties them to a third's domain merely because that one was the root.
    var survivor = Unmanaged.passUnretained(first)
    for root in roots
    where root._withUnsafeGuaranteedRef({ $0.mergedCount })
      > survivor._withUnsafeGuaranteedRef({ $0.mergedCount })
    {
      survivor = root
    }
    let junction =
      roots.count > 1 && survivor._withUnsafeGuaranteedRef({ $0.mergedCount }) == 0
      ? Domain.make() : nil
    if let junction {
      // No other thread can know it yet: taking its lock while holding others is safe.
      junction.lock.lock()
      survivor = Unmanaged.passUnretained(junction)
    }
    let top = survivor._withUnsafeGuaranteedRef { survivor in
      for root in roots where root.toOpaque() != Unmanaged.passUnretained(survivor).toOpaque() {
        survivor.absorb(root.takeUnretainedValue())
      }
      return survivor.countSpan(from: start, inputs, by: 1, walk: walk)
    }
    for root in roots { root._withUnsafeGuaranteedRef { $0.lock.unlock() } }
    junction?.lock.unlock()
    #if DEBUG
      Engine.checkDomainInvariants(top)
    #endif
    return top
  }

  /// Calls `body` with `start` (if any), then the home of each of `inputs`: the domains of a
  /// span.
  @inline(__always)
  static func forEachDomain<Inputs: Collection<AnyNode>>(
    from start: Domain?, _ inputs: Inputs, _ body: (Domain) -> Void
  ) {
    if let start { body(start) }
    for input in inputs { body(input.home) }
  }

  /// Locks `roots`, in the order given (by address), checking each is still a root before the
  /// next is taken: a thread holding a domain that is not a root never waits. Returns `false`,
  /// with nothing held, if one was merged meanwhile.
  private static func lockRoots(_ roots: UnsafeBufferPointer<Unmanaged<Domain>>) -> Bool {
    for index in roots.indices {
      let isRoot = roots[index]._withUnsafeGuaranteedRef { root in
        root.lock.lock()
        return !root.isForwarded
      }
      if !isRoot {
        for held in roots[...index].reversed() {
          held._withUnsafeGuaranteedRef { $0.lock.unlock() }
        }
        return false
      }
    }
    return true
  }

  /// Makes `loser`, a root, forward to this root (both locked): its queue, waiting threads,
  /// drainers, counts and pending work move here.
  func absorb(_ loser: Domain) {
    loser.forward = self
    loser.joinCount = 0  // the span being joined counts it next
    mergedCount += loser.mergedCount + 1
    // A stamp, not a sum: never lower than it was for either side (a pull stores a value
    // only at a stamp no lower than the one cached, and a value cached at the count is current
    // until a write moves it). Adding the two doubled the count at every join after a split
    // (the part cut off takes the root's count): after some sixty cycles it wrapped, and a
    // node whose cached stamp was then above its domain's count kept returning that value.
    writeCount = max(writeCount, loser.writeCount)
    unsettled += loser.unsettled
    loser.unsettled = 0
    role.absorb(&loser.role)
    if !loser.queue.isEmpty { queue.append(contentsOf: &loser.queue) }
    if !loser.catchingUpNodes.isEmpty {
      catchingUpNodes.append(contentsOf: loser.catchingUpNodes)
      loser.catchingUpNodes = []
    }
    if !loser.splitCandidates.isEmpty {
      splitCandidates.append(contentsOf: loser.splitCandidates)
      loser.splitCandidates = []
    }
    #if DEBUG
      debugChildren[ObjectIdentifier(loser)] = ChildDomain(loser)
    #endif
  }
}

extension [Domain] {
  /// Calls `body` with the domains as words, `Unmanaged`: borrowed, with no reference
  /// counting, while the array keeps them alive and unchanged.
  @inline(__always)
  fileprivate func withUnmanagedElements<Result>(
    _ body: (UnsafeBufferPointer<Unmanaged<Domain>>) -> Result
  ) -> Result {
    withUnsafeBufferPointer {
      body(UnsafeBufferPointer(start: $0.unmanagedElements, count: $0.count))
    }
  }
}
