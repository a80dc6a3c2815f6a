// The graph's shape, changed in delivery order: attaching, resuming and detaching derived
// nodes, and completing nodes whose sources are gone. The edges that move once a node exists
// are in Engine+Relink.swift.

extension Engine {
  /// Attaches a new derived node to its inputs, in delivery order.
  ///
  /// A node made inside a computation (a pull's, or a tracked run's: a `flatMapLatest` whose
  /// transform makes a property) while others deliver in its domain is queued to attach
  /// without waiting for its turn: a computation that waited would read the rest of its
  /// inputs after writes that landed meanwhile (a value mixing two states), and a thread
  /// handed the role there would deliver others' work in the middle of its computation.
  /// Until it is attached, a read computes the node from its inputs.
  @usableFromInline
  static func attachInOrder<Value>(_ node: DerivedNode<Value>) {
    // The context borrowed (as in every call below): `ThreadContext.current` retained it.
    ThreadContext.withCurrent { context in
      node.awaitsAttachment = true  // the node is not shared yet
      let root = node.home.lockRoot()
      // The common case, nothing under delivery: attach now, with no task to allocate.
      if runHoldingRoleIfFree(lockedRoot: root, context, { attach(node) }) { return }
      root.lock.unlock()
      performInOrder(in: node.home, mayWait: !context.isComputing) { attach(node) }
    }
  }

  /// Connects a new derived node to its inputs. Role.
  static func attach<Value>(_ node: DerivedNode<Value>) {
    node.assertRole()
    // Attached already, by the first node linked to it (see `resume`). (Written only by the
    // role, or before the node is shared: the role reads it without the lock.)
    guard node.awaitsAttachment else { return }
    if node.anyInput({ $0.needsResuming }) { resumeSuspendedInputs(of: node.inputs) }
    let root = node.home.lockRoot()
    node.awaitsAttachment = false
    let inputsCompleted = linkToInputs(node)
    // The value computed at creation describes the state then; recompute it from what the
    // inputs have delivered if a write was on its way then or is now, or landed since.
    let needsRefresh =
      root.unsettled > 0 || !node.creationStamp.settled
      || root.writeCount != node.creationStamp.writes
    finishLinking(node, unlocking: root, refresh: needsRefresh, inputsCompleted: inputsCompleted)
  }

  /// The end of attaching or resuming `node`, entered holding `root`'s lock with its links
  /// made: marks it refreshing if `needsRefresh` (until it is computed again, reads compute it
  /// on demand, see `Linkage.refreshing`), unlocks, computes it again if so, and completes it
  /// if every input it then has has completed. Role.
  private static func finishLinking(
    _ node: AnyNode, unlocking root: Domain, refresh needsRefresh: Bool, inputsCompleted: Bool
  ) {
    node.isRefreshing = needsRefresh
    root.lock.unlock()
    var completes = inputsCompleted
    if needsRefresh {
      node.refresh()
      // The refresh may have relinked the node (a computed property whose branch flipped
      // while it was suspended, a `flatMapLatest` catching up): the inputs it linked to before
      // say nothing of the ones it follows now.
      completes = node.inputsCompletedLocked
    }
    if completes { complete(node) }
    #if DEBUG
      checkLocalInvariants(of: node)
    #endif
  }

  /// Disconnects a derived node nothing refers to any more, and then any input left unused.
  /// Role.
  static func detach(_ node: AnyNode) {
    // `work` holds the inputs the node leaves unused, and is allocated only when there are
    // some (a `map` of a relay released leaves none).
    var work: [AnyNode] = []
    detachOne(node, leavingUnused: &work)
    detachUnused(&work)
  }

  /// `detach(_:)` entered holding `root`, the node's root (whose role this thread holds):
  /// detaches the node under that lock, lets it go, then detaches what it left unused. Role.
  static func detach(_ node: AnyNode, lockedRoot root: Domain) {
    var work: [AnyNode] = []
    let detached = detachLocked(node, root, leavingUnused: &work)
    root.lock.unlock()
    #if DEBUG
      if detached { checkDetached(node) }
    #endif
    if !work.isEmpty { detachUnused(&work) }
  }

  /// Detaches each node of `work` (`detach(_:)`), inputs a detached node left unused, and
  /// then those they leave unused in turn. Role.
  static func detachUnused(_ work: inout [AnyNode]) {
    while let next = work.popLast() { detachOne(next, leavingUnused: &work) }
  }

  /// `detachLocked` for `node` under its root's lock, appending to `work` the inputs it
  /// leaves unused. Role.
  @inline(__always)
  private static func detachOne(_ node: AnyNode, leavingUnused work: inout [AnyNode]) {
    let detached = node.withRootLocked { root in
      defer { root.lock.unlock() }
      return detachLocked(node, root, leavingUnused: &work)
    }
    #if DEBUG
      if detached { checkDetached(node) }
    #endif
  }

  /// The body of `detach(_:)` for one node, entered holding `root`, its root's lock: unless
  /// the node is in use again (or detached already), marks it suspended and unlinks it from
  /// its inputs, appending to `work` those it leaves unused. Returns whether it detached the
  /// node. Role, under the lock.
  ///
  /// Everything borrowed: the node and its root (the caller's), and its inputs, read through
  /// `inputsElements` (iterating `inputs` retained the array and each input), which stays
  /// valid as nothing here changes `inputs`.
  @inline(__always)
  static func detachLocked(
    _ node: AnyNode, _ root: Domain, leavingUnused work: inout [AnyNode]
  ) -> Bool {
    #if DEBUG
      root.assertRole(ThreadContext.current)
    #endif
    guard node.isAttached, node.keepAliveCount == 0, !node.isSource else { return false }
    node.isAttached = false
    node.isSuspended = true
    node.suspension.writes = root.writeCount
    // A node a write reached while it was not computed (a parked branch, see
    // Engine+Parking.swift) holds a value older than the count: resuming computes it again.
    node.suspension.settled = root.unsettled == 0 && !node.isRefreshing
    node.isRefreshing = false
    node.isParked = false
    // The branch it parked goes with it, unless something else observes it.
    if let branch = node.parkedBranch {
      node.parkedBranch = nil
      work.append(branch.takeRetainedValue())  // released by the caller, outside the lock
    }
    let count = node.inputs.count
    guard count > 0, let elements = node.inputsElements else { return true }
    for index in 0..<count {
      elements[index]._withUnsafeGuaranteedRef { input in
        input.removeDownstream(node)
        if input.dropHandle() { work.append(input) }
      }
    }
    return true
  }

  #if DEBUG
    /// The local invariants of `node`, just detached, and of its inputs.
    static func checkDetached(_ node: AnyNode) {
      checkLocalInvariants(of: node)
      for input in node.inputs { checkLocalInvariants(of: input) }
    }
  #endif

  /// Attaches every suspended node among `inputs` (see `AnyNode.isSuspended`) before a node
  /// is linked to them. Role.
  static func resumeSuspendedInputs<Inputs: Sequence<AnyNode>>(of inputs: Inputs) {
    for input in inputs where input.needsResuming { resume(input) }
  }

  /// Attaches `node`, a suspended node an observer comes back to, and the suspended nodes it
  /// is computed from, inputs first; each is computed again from what its inputs delivered
  /// (it missed their changes while suspended) and relinked if it now reads other inputs.
  /// Role.
  package static func resume(_ node: AnyNode) {
    node.assertRole()
    // The common case, a node none of whose inputs is suspended (a computed property over
    // relays subscribed to): no walk, and nothing allocated for one. The inputs are read
    // without the lock: the role, which this thread holds, is what writes them.
    guard node.anyInput({ $0.needsResumingLocked }) else {
      resumeOne(node)
      return
    }
    let inputs = node.inputs
    // The suspended part of the graph, inputs first.
    var order: [AnyNode] = []
    var stack: [PostOrderFrame] = [(node, inputs, 0)]
    var seen: Set<ObjectIdentifier> = [ObjectIdentifier(node)]
    postOrder(&stack, into: &order) { input in
      guard input.needsResumingLocked, seen.insert(ObjectIdentifier(input)).inserted else {
        return nil
      }
      return input.lockedInputs()
    }
    for next in order { resumeOne(next) }
  }

  /// Attaches `node`, one node of `resume(_:)`'s walk, whose suspended inputs are attached
  /// already, and computes it again if writes were delivered while it was suspended. Role.
  private static func resumeOne(_ node: AnyNode) {
    // The root borrowed (`withRootLocked`), not retained as `lockRoot()`'s result is.
    node.withRootLocked { root in
      if node.awaitsAttachment {
        // Made while the domain was busy, its attachment still queued: attached now, before
        // what is computed from it links to it.
        root.lock.unlock()
        node.attachAwaited()
        return
      }
      if node.isParked {
        // A parked branch (see Engine+Parking.swift), attached: a branch no more, computed
        // now from what its inputs delivered if a write reached it.
        let stale = node.unparkLocked()
        root.lock.unlock()
        if stale { node.refresh() }
        return
      }
      guard node.isSuspended, !node.isCompleted else {
        root.lock.unlock()
        return
      }
      let inputsCompleted = linkToInputs(node)
      node.isSuspended = false
      // Writes delivered while it was suspended did not reach it.
      let needsRefresh = !node.suspension.settled || root.writeCount != node.suspension.writes
      finishLinking(
        node, unlocking: root, refresh: needsRefresh, inputsCompleted: inputsCompleted)
    }
  }

  /// Lists `node` downstream of each of its inputs, takes a handle on each, and gives it the
  /// rank after theirs; returns whether every input has completed. Role, under the lock.
  ///
  /// The inputs are borrowed, read through `inputsElements` (iterating `inputs` retained the
  /// array and each input), which stays valid as nothing here changes `inputs`.
  private static func linkToInputs(_ node: AnyNode) -> Bool {
    node.assertRoleLocked()
    var rank = 0
    var completed = true
    let count = node.inputs.count
    if count > 0, let elements = node.inputsElements {
      for index in 0..<count {
        elements[index]._withUnsafeGuaranteedRef { input in
          rank = max(rank, input.rank + 1)
          input.addDownstream(node)
          completed = completed && input.isCompleted
        }
      }
    }
    node.rank = rank
    node.isAttached = true
    return completed
  }

  /// A node of a post-order walk, the inputs it opens, and the next of them to visit.
  typealias PostOrderFrame = (node: AnyNode, inputs: ContiguousArray<AnyNode>, next: Int)

  /// Walks the graph from the nodes on `stack` towards their inputs, in a loop (no recursion,
  /// however deep the graph), appending each node to `order` after its inputs. `open(input)`
  /// returns the inputs to walk through from `input`, or `nil` to leave it out (not part of
  /// the walk, or already visited).
  @inline(__always)
  static func postOrder(
    _ stack: inout [PostOrderFrame], into order: inout [AnyNode],
    open: (AnyNode) -> ContiguousArray<AnyNode>?
  ) {
    while !stack.isEmpty {
      let top = stack.count - 1
      let index = stack[top].next
      guard index < stack[top].inputs.count else {
        order.append(stack.removeLast().node)
        continue
      }
      stack[top].next = index + 1
      // The input borrowed from the frame's array, which holds it: taken out of the array, it
      // was retained and released on every edge, though most are not opened.
      let input = stack[top].inputs.withUnsafeBufferPointer {
        $0.unmanagedElements.unsafelyUnwrapped[index]
      }
      if let inputs = input._withUnsafeGuaranteedRef(open) {
        stack.append((input.takeUnretainedValue(), inputs, 0))
      }
    }
  }

  /// Completes `node`: runs its completion handlers, releases its sinks, and completes every
  /// downstream node whose inputs have all completed. Role.
  static func complete(_ node: AnyNode) {
    node.assertRole()
    // The common case, a node nothing listens to or is computed from (a constant computed
    // property, completed as it is made): the mark alone, with no list, no invalidation scope,
    // and no call of the node's generic code (which looked up generic metadata).
    let root = node.home.lockRoot()
    if !node.isCompleted && node.downstream.isEmpty && !node.hasListeners {
      node.isCompleted = true
      let unused = node.keepAliveCount == 0 && !node.isSource && node.isAttached
      root.lock.unlock()
      if unused { detach(node) }
      return
    }
    root.lock.unlock()
    completeInTurn(node)
  }

  /// `complete(_:)` for a node someone listens to or is computed from: the handlers, the sinks
  /// and the downstream nodes, in a loop. Role.
  private static func completeInTurn(_ node: AnyNode) {
    var work: [AnyNode] = [node]
    while let next = work.popLast() {
      let root = next.home.lockRoot()
      guard !next.isCompleted else {
        root.lock.unlock()
        continue
      }
      var released: [Any] = []
      let handlers = next.takeCompletionHandlers(released: &released)
      for candidate in next.downstream where candidate.inputs.allSatisfy(\.isCompleted) {
        work.append(candidate)
      }
      let unused = next.keepAliveCount == 0 && !next.isSource && next.isAttached
      root.lock.unlock()
      released.removeAll()  // sinks and handlers die here, outside the lock
      let context = ThreadContext.current
      context.beginScope()
      for handler in handlers { handler() }
      context.endScope()
      if unused { detach(next) }
    }
  }
}

extension AnyNode {
  /// Whether any input satisfies `predicate`, the inputs read as words (see `inputsElements`):
  /// iterating the array of a class's field retained and released it, and each input. For the
  /// role, or under the lock; `predicate` must not change `inputs`.
  @inline(__always)
  final func anyInput(_ predicate: (AnyNode) -> Bool) -> Bool {
    guard let elements = inputsElements else { return false }
    for index in 0..<inputs.count where elements[index]._withUnsafeGuaranteedRef(predicate) {
      return true
    }
    return false
  }

  /// Whether every input has completed, read under the lock.
  final var inputsCompletedLocked: Bool {
    withRootLocked { root in
      let completed = !anyInput { !$0.isCompleted }
      root.lock.unlock()
      return completed
    }
  }

  /// `isCompleted`, read under the lock.
  package final var isCompletedLocked: Bool {
    withRootLocked { root in
      let completed = isCompleted
      root.lock.unlock()
      return completed
    }
  }

  /// Whether writes do not compute the node, read under the lock: it is suspended, or a
  /// parked branch nothing observes again (see Engine+Parking.swift), and not completed. What rule 13 says of a
  /// computed property nothing observes.
  final var isUnfollowedLocked: Bool {
    withRootLocked { root in
      let unfollowed = (isSuspended || (isParked && keepAliveCount == 0)) && !isCompleted
      root.lock.unlock()
      return unfollowed
    }
  }

  /// `needsResumingLocked`, read by the role of the node's domain, which is what writes what it
  /// reads (`awaitsAttachment` is written before the node is shared, too): no lock to take.
  /// For `Engine.resumeSuspendedInputs(of:)`, whose inputs are of the domain the caller
  /// holds the role of (merged with the node's by `Domain.join` or `Domain.home(over:)`).
  final var needsResuming: Bool { !isSource && lagsUnattached }

  /// Whether the node is suspended, awaits its attachment, or is a parked branch a write
  /// reached: what `needsResuming` and `needsResumingLocked` test. Role or lock.
  private final var lagsUnattached: Bool {
    (isSuspended && !isCompleted) || awaitsAttachment || (isParked && isRefreshing)
  }

  /// Whether a node linking to this one must first attach it (`Engine.resume`): it is
  /// suspended, or its attachment is still queued (`awaitsAttachment`). Read under the lock.
  final var needsResumingLocked: Bool {
    // A source is always attached: no lock to take to know it.
    if isSource { return false }
    return withRootLocked { root in
      let needs = lagsUnattached
      root.lock.unlock()
      return needs
    }
  }

  /// How many keep-alive handles the node has (`keepAliveCount`), read under the lock: for
  /// tests.
  package final var lockedKeepAliveCount: Int {
    withRootLocked { root in
      let count = keepAliveCount
      root.lock.unlock()
      return count
    }
  }

  /// Counts a reference that keeps the node attached (a property, a tracked run's read); does
  /// nothing for a source, which is never detached: a relay's creation and release, and a
  /// computed property's first run over relays, then take no lock for it.
  package final func retainHandle() {
    if isSource { return }
    // The root borrowed (`withRootLocked`), not retained as `lockRoot()`'s result is.
    withRootLocked { root in
      keepAliveCount += 1
      root.lock.unlock()
    }
  }

  /// Drops a reference counted by `retainHandle()`; a derived node nothing refers to any more
  /// leaves the graph, so its inputs stop computing it.
  package final func releaseHandle() {
    if isSource { return }
    let unused = withRootLocked { root in
      let unused = dropHandle()
      root.lock.unlock()
      return unused
    }
    if unused { detachAfterDelivery() }
  }

  /// `releaseHandle()` for a caller that holds the lock: returns whether the node is now
  /// unused, in which case the caller calls `detachAfterDelivery()` once it has unlocked.
  /// A node whose attaching is still queued counts too: its detach is queued behind it.
  final func dropHandle() -> Bool {
    assertLocked()
    keepAliveCount -= 1
    return keepAliveCount == 0 && !isSource
  }

  /// Lists `node` among the nodes computed from this one, taking a keep-alive handle for it.
  /// Role, under the lock.
  @inline(__always)
  final func addDownstream(_ node: AnyNode) {
    downstream.append(node)
    keepAliveCount += 1
  }

  /// Removes `node` from the nodes computed from this one, the newest first (a node detached
  /// is mostly the last one linked: no element moves then). Role, under the lock.
  @inline(__always)
  final func removeDownstream(_ node: AnyNode) {
    let last = downstream.count &- 1
    if last >= 0 && downstream[last] === node {
      downstream.removeLast()
    } else if let index = downstream.firstIndex(where: { $0 === node }) {
      downstream.remove(at: index)
    }
  }

  /// Takes an unused derived node out of the graph once no event of its domain is delivered.
  final func detachAfterDelivery() {
    Engine.detachAfterDelivery(self)
  }
}
