// A node's state, grouped by concern, and its Boolean state as flag words (the delivery's marks,
// written at every node a delivery reaches, are bytes). Bits with different guards never share
// a word: a write of one bit is a write of the whole word, so a bit the role holder writes
// without the lock beside one another thread writes under the lock would race.

extension AnyNode {
  /// What kind of node this is. Set before the node is shared, then only read.
  @usableFromInline
  struct Traits: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Written directly (a source) rather than computed.
    @inlinable static var source: Traits { Traits(rawValue: 1 << 0) }
    /// The value is plain data (`_isPOD`): nothing to release after a commit, so a node with
    /// no sinks to run needs no delivery step at all.
    @inlinable static var holdsPlainData: Traits { Traits(rawValue: 1 << 1) }
    /// The node carries events rather than state (see `ValueNode.eventSteps`): its value is an
    /// optional that holds the event only while it is delivered, and every event is delivered
    /// on its own, also inside a batch (rule 10: state coalesces, events do not).
    @inlinable static var carriesEvents: Traits { Traits(rawValue: 1 << 2) }
    /// The property that wraps the node does not keep it attached: a computed property, which
    /// is followed only while observed (a subscription, a property or a view pass computed
    /// from it).
    @inlinable static var suspendsWhenUnobserved: Traits { Traits(rawValue: 1 << 3) }
  }

  /// Whether a `Property` that wraps the node holds it attached with a handle
  /// (`retainHandle()`): not a source, which is never detached, nor a node that is attached
  /// only while observed. One test of the traits.
  @inlinable final var isKeptByHandle: Bool {
    traits.isDisjoint(with: [.source, .suspendsWhenUnobserved])
  }

  /// Where a node stands in the graph. Role; written under the lock.
  @usableFromInline
  struct Linkage: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `downstream` of every input lists this node.
    @inlinable static var attached: Linkage { Linkage(rawValue: 1 << 0) }
    /// The node left the graph because nothing observed it (see `Engine.detach`) or was made
    /// outside it (an unobserved computed property): its `inputs` are kept, reads compute it
    /// on demand, and the first observer to come back attaches it again (`Engine.resume`).
    @inlinable static var suspended: Linkage { Linkage(rawValue: 1 << 1) }
    /// The node was made while its domain was busy (another thread delivering it, or a
    /// computation under way on this one) and its attachment waits in the domain's queue:
    /// until then it is neither attached nor suspended, and reads compute it on demand. The
    /// first attached node linked to it attaches it first (`Engine.resume`), so that no
    /// attached node is computed from an input the changes do not reach.
    @inlinable static var awaitsAttachment: Linkage { Linkage(rawValue: 1 << 2) }
    /// The node will never change again.
    @inlinable static var completed: Linkage { Linkage(rawValue: 1 << 3) }
    /// The node was just attached or resumed and is being computed again from what its inputs
    /// delivered (`refresh`), with the lock let go: until that is stored, its delivered value
    /// predates writes it missed, and reads compute it on demand, as for a suspended node.
    @inlinable static var refreshing: Linkage { Linkage(rawValue: 1 << 4) }
    /// The node's relink to new inputs waits in the queue (`Engine.switchInputs` behind another
    /// thread's delivery): its delivered value was computed from their newest values then,
    /// which their writes delivered meanwhile do not follow, so reads compute it on demand
    /// until its recomputation is delivered. Only reads: a delivered run of another domain
    /// still takes its delivered value (see `valueDeliveredElsewhere()`).
    @inlinable static var relinkQueued: Linkage { Linkage(rawValue: 1 << 5) }
    /// The node is a parked branch (see Engine+Parking.swift): nothing observes it, since the
    /// run of the node that read it last let it go, but it stays attached, so that the next run
    /// of that node, if it reads it again, finds it linked. A delivery that reaches it does not
    /// compute it: it marks it `refreshing`, and the event's end detaches it unless a run read
    /// it again (which computes it then).
    @inlinable static var parked: Linkage { Linkage(rawValue: 1 << 6) }
  }

  /// A node's marks in the delivery under way. Role: only the drainer reads or writes them.
  ///
  /// Bytes rather than a flag word: a delivery sets and clears them at every node it reaches,
  /// and a byte store is one instruction where a bit is a load, an `or` or `and`, and a store
  /// (as a word of bits, they cost 2.7% more instructions on the `chain` profile: 2,853 per
  /// write against 2,778).
  @usableFromInline
  package struct DeliveryMarks {
    /// The node's value changed in the event being delivered.
    @usableFromInline package var changed = false
    /// The node waits in the delivery's work list.
    @usableFromInline var queued = false
    /// `commitStaged()` captured sinks for `deliverCommitted(_:)` to run.
    @usableFromInline var hasCommittedSinks = false
    /// The node is in the thread's list of computed properties run untracked in the segment
    /// under way (`nextSegmentRun`): a node run twice in one segment (relinked to an input
    /// that changes later in the event) is listed once, or the list would loop.
    @usableFromInline var listedInSegment = false

    @inlinable init() {}
  }

  /// The domain's write count when the node was suspended, and whether no write was then on
  /// its way: while the count is unchanged, the value it holds is current, and resuming need
  /// not compute it again. Lock.
  @usableFromInline
  struct Suspension {
    @usableFromInline var writes: UInt64 = 0
    @usableFromInline var settled = false
    @inlinable init() {}
  }

  /// For a source: how many writes it has taken (the newest write's sequence number), and the
  /// sequence numbers of the write staged for delivery and of the write delivered. A new
  /// subscriber that starts from a newer value than the delivered one compares these (see
  /// `catchingUp`). `count` and `delivered`: lock; `staged`: role.
  @usableFromInline
  struct WriteLog {
    @usableFromInline var count: UInt64 = 0
    @usableFromInline var staged: UInt64 = 0
    @usableFromInline var delivered: UInt64 = 0
    /// The identity of the batch that last wrote the source (`ThreadContext.batch.identity`),
    /// so a batch lists each source it wrote once, with no search. Lock.
    @usableFromInline var lastBatch: UInt64 = 0
    @inlinable init() {}
  }

  /// What a derived node's `pulled` cache holds. Lock.
  @usableFromInline
  struct PullCache {
    /// Whether `pulled` holds a value, computed at `stamp`.
    @usableFromInline var hasValue = false
    @usableFromInline var stamp: UInt64 = 0
    /// The root domain `stamp` counts the writes of (the pull's, `Computation.pullRoot`), or
    /// `nil` for a first value: a pull compares its own stamp only with a value cached at that
    /// count of that domain (see `isPulledValueCurrent(in:)`).
    @usableFromInline var stampRoot: ObjectIdentifier?
    /// The outermost pull (`ThreadContext.Computation.outermostPull`) that computed the
    /// `pulled` value when it may not be cached for the stamp (`hasValue` false: it read
    /// inputs the node is not linked to), else 0: the rest of that pull reuses it. Without it,
    /// each read of such a node inside the pull computed it again, and its readers the same: a
    /// layered graph of computed properties whose branches switch was computed once per path
    /// through it, exponentially in its depth.
    @usableFromInline var inPull: UInt64 = 0
    /// The identity of the last pull that visited the node (see `Engine.pullInOrder`).
    var mark: UInt64 = 0
    /// Whether the pulled value is the node's delivered value (see `DerivedNode.pulled`): a
    /// computed property's first value, cached at its creation stamp, until a pull replaces
    /// it. While its stamp is current the delivered value is that first value: it changes
    /// only with a write's delivery or a refresh after one, which move the stamp.
    @usableFromInline var isDelivered = false
    /// Whether the pull that cached the value read exactly the node's inputs, in order (a
    /// computed property's run that would not relink): a delivery of the writes the value
    /// was computed from may then take it rather than run the computation again (see
    /// `DerivedNode.pulledForDelivery(_:)`). Cleared when the node is relinked.
    @usableFromInline var readsMatchInputs = false
    @inlinable init() {}
  }

  // MARK: The flags by name

  /// Whether this node is written directly (a source) rather than computed.
  @inlinable final var isSource: Bool { traits.has(.source) }
  /// Whether the value is plain data (see `Traits.holdsPlainData`).
  @inlinable final var holdsPlainData: Bool { traits.has(.holdsPlainData) }
  /// Whether the node carries events rather than state (see `Traits.carriesEvents`).
  @inlinable final var carriesEvents: Bool { traits.has(.carriesEvents) }
  /// Whether the property that wraps this node does not keep it attached (see
  /// `Traits.suspendsWhenUnobserved`). Set before the node is shared.
  @inlinable final var suspendsWhenUnobserved: Bool {
    get { traits.has(.suspendsWhenUnobserved) }
    set { traits.set(.suspendsWhenUnobserved, newValue) }
  }

  /// Whether `downstream` of every input lists this node. Role; written under the lock.
  @inlinable final var isAttached: Bool {
    get { linkage.has(.attached) }
    set { linkage.set(.attached, newValue) }
  }
  /// Whether the node is suspended (see `Linkage.suspended`). Role; written under the lock.
  @inlinable final var isSuspended: Bool {
    get { linkage.has(.suspended) }
    set { linkage.set(.suspended, newValue) }
  }
  /// Whether the node is attached and its delivered value follows every write delivered to
  /// it: attached, not being computed again after attaching (see `Linkage.refreshing`), and
  /// with no relink waiting (`Linkage.relinkQueued`).
  /// What a read tests before taking the delivered value: one test, as `isAttached`.
  @inlinable final var deliveredFollowsInputs: Bool {
    linkage.rawValue
      & (Linkage.attached.rawValue | Linkage.refreshing.rawValue | Linkage.relinkQueued.rawValue)
      == Linkage.attached.rawValue
  }
  /// Whether the node's relink waits in the queue (see `Linkage.relinkQueued`). Written by a
  /// drainer under the lock.
  @inlinable final var isRelinkQueued: Bool {
    get { linkage.has(.relinkQueued) }
    set { linkage.set(.relinkQueued, newValue) }
  }
  /// Whether the node is a parked branch (see `Linkage.parked`). Role; written under the lock.
  @inlinable final var isParked: Bool {
    get { linkage.has(.parked) }
    set { linkage.set(.parked, newValue) }
  }
  /// Whether the node is being computed again after attaching (see `Linkage.refreshing`).
  /// Role; written under the lock.
  @inlinable final var isRefreshing: Bool {
    get { linkage.has(.refreshing) }
    set { linkage.set(.refreshing, newValue) }
  }
  /// Whether the node's attachment waits in its domain's queue (see
  /// `Linkage.awaitsAttachment`). Role; written under the lock.
  @inlinable final var awaitsAttachment: Bool {
    get { linkage.has(.awaitsAttachment) }
    set { linkage.set(.awaitsAttachment, newValue) }
  }
  /// Whether this node will never change again. Role; written under the lock.
  @inlinable final var isCompleted: Bool {
    get { linkage.has(.completed) }
    set { linkage.set(.completed, newValue) }
  }

  /// Whether the node's value changed in the event being delivered. Role.
  @inlinable package final var isChanged: Bool {
    get { marks.changed }
    set { marks.changed = newValue }
  }
  /// Whether the node waits in the delivery's work list. Role.
  @inlinable final var isQueued: Bool {
    get { marks.queued }
    set { marks.queued = newValue }
  }
  /// Whether `commitStaged()` captured sinks for `deliverCommitted(_:)` to run. Role.
  @inlinable final var hasCommittedSinks: Bool {
    get { marks.hasCommittedSinks }
    set { marks.hasCommittedSinks = newValue }
  }
  /// Whether the node is in the segment's list of untracked runs. Role.
  @inlinable final var isListedInSegment: Bool {
    get { marks.listedInSegment }
    set { marks.listedInSegment = newValue }
  }
}

extension OptionSet where Element == Self, RawValue == UInt8 {
  /// Inserts `member` if `isOn`, else removes it: one `or` or `and` of the raw bits (the
  /// library's `insert` also computes what it returns).
  @inlinable @inline(__always)
  mutating func set(_ member: Self, _ isOn: Bool) {
    self = Self(rawValue: isOn ? rawValue | member.rawValue : rawValue & ~member.rawValue)
  }

  /// Whether every bit of `member` is set.
  @inlinable @inline(__always)
  func has(_ member: Self) -> Bool { rawValue & member.rawValue == member.rawValue }
}
