#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if DEBUG
  /// Debug builds check the engine's invariants after every delivery, so that a broken one
  /// fails where it breaks rather than as a wrong value later. Release builds compile none of
  /// this. Set `INVALIDATING_SKIP_INVARIANTS=1` to skip the checks (for timing a debug build).
  extension Engine {
    /// Whether deliveries check the invariants (debug builds only).
    static let checksInvariants = getenv("INVALIDATING_SKIP_INVARIANTS") == nil

    /// Checks every invariant of the graph around `start` and of its domain, and of the
    /// delivery scratch space `session`; stops with a description of the first one broken.
    /// Call as the domain's drainer, with no lock held.
    ///
    /// - Ranks: a derived node ranks above each of its inputs.
    /// - Links: an attached node is listed in each input's `downstream` as often as it lists
    ///   the input, and every node in a `downstream` list is attached and lists that input.
    /// - Handles: a node's keep-alive count is at least its number of attached downstream nodes.
    /// - Delivery state: between events no node is queued, changed, staged or holding
    ///   captured sinks, and the session's work list and changed list are empty.
    /// - Sinks: `deadSinks` counts the tombstones, none is last, and none follows
    ///   `firstLiveSink` unskipped at the front.
    /// - Catching up: a derived node with catching-up records is listed in its root's
    ///   `catchingUpNodes`, and none of its records is caught up.
    /// - Domain: the root is not forwarded; the forwarding chain of every node reaches it; a
    ///   free role means an empty queue and no waiting thread; counts are not negative.
    ///
    /// The join counts of the domain's tree are checked after each split, and by tests
    /// (`checkJoinCounts(around:)`): after every delivery they cost more than the rest.
    static func checkInvariants(around start: AnyNode, session: DrainSession? = nil) {
      if let session {
        check(session.isIdle, "the session's work list is not empty after a delivery")
        check(session.changedCount == 0, "the session's changed list is not empty")
      }
      let root = start.home.lockRoot()
      defer { root.lock.unlock() }
      checkDomain(root)
      // Another thread delivering the domain too (just after a merge) may be mid-event.
      guard root.role.drainers.count <= 1 else { return }
      var seen: Set<ObjectIdentifier> = [ObjectIdentifier(start)]
      var work: [AnyNode] = [start]
      while let node = work.popLast() {
        check(reachesRoot(node.home, root), "a node whose domain does not forward to the root")
        check(!node.isQueued && node.nextQueued == nil, "a node left in the work list")
        check(!node.isChanged, "a node left marked changed")
        node.checkValueInvariants()
        node.checkCatchUpInvariants(root)
        var attachedDownstream = 0
        for child in node.downstream {
          check(child.isAttached, "a detached node listed downstream")
          check(
            child.inputs.contains { $0 === node }, "a downstream node that does not list its input")
          check(child.rank > node.rank, "rank \(child.rank) not above its input's \(node.rank)")
          attachedDownstream += 1
          if seen.insert(ObjectIdentifier(child)).inserted { work.append(child) }
        }
        check(
          node.keepAliveCount >= attachedDownstream,
          "\(node.keepAliveCount) keep-alive handles for \(attachedDownstream) attached downstream nodes"
        )
        if node.isAttached && !node.isSource {
          for input in node.inputs {
            checkLink(of: node, to: input)
            if seen.insert(ObjectIdentifier(input)).inserted { work.append(input) }
          }
        }
      }
    }

    /// Checks the invariants that hold whenever the lock is free, around `node` only: its links
    /// with its inputs and downstream nodes, its rank and keep-alive count, its domain's role and queue,
    /// and, when no delivery of the domain is under way, its value and sinks (when there are
    /// few: the check must stay cheap beside the operation it follows). What a mutating
    /// operation other than a delivery calls at its end: subscribe, cancel, attach, detach,
    /// relink, a merge, a write delivered straight to the sinks. Call with no lock held.
    @usableFromInline
    static func checkLocalInvariants(of node: AnyNode) {
      guard checksInvariants else { return }
      let root = node.home.lockRoot()
      defer { root.lock.unlock() }
      checkDomain(root)
      var attachedDownstream = 0
      for child in node.downstream {
        check(child.isAttached, "a detached node listed downstream")
        check(
          child.inputs.contains { $0 === node }, "a downstream node that does not list its input")
        check(child.rank > node.rank, "rank \(child.rank) not above its input's \(node.rank)")
        attachedDownstream += 1
      }
      check(
        node.keepAliveCount >= attachedDownstream,
        "\(node.keepAliveCount) keep-alive handles for \(attachedDownstream) attached downstream nodes"
      )
      check(!(node.isAttached && node.isSuspended), "a node both attached and suspended")
      if node.isParked {
        check(node.isAttached, "a parked branch not attached")
        check(
          node.inputs.allSatisfy(\.isSource), "a parked branch computed from a derived node")
      }
      // (A parked branch a write reached stays so: see Engine+Parking.swift.)
      check(
        !node.isRefreshing || node.isParked || !root.role.isFree,
        "a node left refreshing (its delivered value not taken by reads) with no drainer")
      check(
        !node.isRelinkQueued || !root.role.isFree,
        "a node whose relink is queued (its delivered value not taken by reads) with no drainer")
      if node.isAttached && !node.isSource {
        for input in node.inputs {
          check(reachesRoot(input.home, root), "an input in another domain than its node")
          check(node.rank > input.rank, "rank \(node.rank) not above its input's \(input.rank)")
          // A node completes once every input it follows has (never from inputs it followed
          // before a relink): it is never computed again.
          check(!node.isCompleted || input.isCompleted, "a completed node over a live input")
          checkLink(of: node, to: input)
        }
      }
      if root.role.isFree && node.liveSinkCount <= 64 { node.checkValueInvariants() }
    }

    /// The invariants of a root domain that hold whenever its lock is free. Lock.
    static func checkDomain(_ root: Domain) {
      check(!root.isForwarded, "lockRoot returned a forwarded domain")
      check(root.unsettled >= 0, "negative unsettled count \(root.unsettled)")
      if root.role.isFree {
        check(root.queue.isEmpty, "a free role with \(root.queue.count) queued changes")
        check(root.role.violation == nil, root.role.violation ?? "")
      }
    }

    /// `checkDomain(_:)` for the root of `domain`, after a merge. Call with no lock held.
    static func checkDomainInvariants(_ domain: Domain) {
      guard checksInvariants else { return }
      let root = domain.lockRoot()
      checkDomain(root)
      root.lock.unlock()
    }

    /// Whether following `domain`'s forwarding chain reaches `root`, whose lock is held. Read
    /// without the chain's own locks: while the root's lock is held, no chain of its tree moves
    /// (a merge attaches roots, a split needs the root's lock), and a domain outside the tree,
    /// which would make this read race, is what the check is there to find. (Locking each
    /// domain on the way could wait for ever then, and trying to lock it fails while any thread,
    /// perhaps preempted, holds it for a read.)
    private static func reachesRoot(_ domain: Domain, _ root: Domain) -> Bool {
      var current = domain
      var hops = 0
      while current !== root {
        guard let next = current.forward, hops < 4_096 else { return false }
        current = next
        hops += 1
      }
      return true
    }

    /// The invariants of the link from `node`, an attached derived node, to one of its
    /// inputs, which both walks check. Lock.
    static func checkLink(of node: AnyNode, to input: AnyNode) {
      check(
        input.isAttached || input.isCompleted,
        "an attached node computed from an input not attached: it would read a value the "
          + "input's changes no longer reach")
      // A node that reads one input twice (combineLatest(a, a)) is listed twice.
      let listed = input.downstream.filter { $0 === node }.count
      let reads = node.inputs.filter { $0 === input }.count
      check(listed == reads, "a node reading an input \(reads) times is listed \(listed)")
    }

    static func check(
      _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
      line: UInt = #line
    ) {
      if !condition() { fatalError("Engine invariant broken: \(message())", line: line) }
    }
  }
#endif

#if DEBUG
  extension Engine {
    /// `checkInvariants(around:)` for tests: the graph around `node` and its domain.
    package static func checkInvariants(around node: AnyNode) {
      checkInvariants(around: node, session: nil)
    }
  }
#endif
