import InvalidatingCore

extension Property {
  /// A property that follows the property `transform` returns for this property's current
  /// value, switching to a new one whenever this property changes.
  ///
  /// ```swift
  /// // The name of whichever user is selected, following that user's renames.
  /// let selectedName = selectedUser.flatMapLatest { user in user.name }
  /// ```
  ///
  /// `transform` runs once per delivered change of this property (and on demand when `value`
  /// is read while a write waits for delivery). Once it has switched, the result no longer
  /// follows the previous inner property: changes to it are not delivered.
  ///
  /// The switch is glitch-free: when one write changes both this property and the new inner
  /// property (they share a source), subscribers see one value, computed from both new
  /// values.
  ///
  /// - Parameters:
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - transform: Returns the property to follow for a value. It may return a property it
  ///     has returned before.
  /// - Returns: A property with the current inner property's value.
  /// - Complexity: O(1) per change of the inner property; a switch costs O(inputs of the
  ///   derived properties downstream) when it has to re-rank them.
  @inlinable
  public func flatMapLatest<Inner>(
    file: StaticString = #fileID, line: UInt = #line,
    _ transform: @escaping @Sendable (Value) -> Property<Inner>
  ) -> Property<Inner> {
    // Inlinable, so that the node is made where `Inner` is known and its delivery steps are
    // specialized (unspecialized, they looked up generic metadata on every change); the
    // switching itself is `_SwitchLink`'s.
    let link = _SwitchLink(outer: node, transform: transform)
    let result = Property<Inner>._derived(
      from: [node, link.firstInner], origin: .made("flatMapLatest", file: file, line: line)
    ) { mode, previous in
      link.compute(mode, previous)
    }
    link.adopt(result.node)
    return result
  }
}

/// The switching node's record of the inner property it follows, which it keeps alive.
///
/// Written by the domain's drainer role when the node computes in `.delivery` mode, and by the
/// creating thread before the node is returned; the lock orders the two.
@usableFromInline
final class _SwitchLink<Outer, Inner>: @unchecked Sendable {
  // Safe: every field is only touched while `lock` is held, but `outer` and `transform`,
  // set once.
  private let lock = Lock()
  /// The outer node. Unretained: the switching node's inputs always include it (see `map`).
  private unowned(unsafe) let outer: ValueNode<Outer>
  /// What chooses the inner property for an outer value.
  private let transform: @Sendable (Outer) -> Property<Inner>
  private var _current: Property<Inner>
  private weak var _owner: AnyNode?
  /// The outer node's change count when `_current` was chosen.
  private var chosenAt: UInt64
  /// The inner property a read on demand chose, and the write stamp of the outer node's domain
  /// it was chosen at: valid while the stamp has not moved (no write since).
  private var onDemand: (inner: Property<Inner>, stamp: UInt64)?

  /// Follows the inner property `transform` chooses for the outer node's delivered value.
  ///
  /// The first inner property and the first value come from what has been delivered, not
  /// from the newest writes: created inside a batch, the node's edges and its value then
  /// describe the same state, and the batch's delivery switches it if the outer value moved.
  @usableFromInline
  init(outer: ValueNode<Outer>, transform: @escaping @Sendable (Outer) -> Property<Inner>) {
    self.outer = outer
    self.transform = transform
    let (first, firstChange) = outer.deliveredValueAndChangeCount()
    _current = transform(first)
    chosenAt = firstChange
  }

  /// The node of the first inner property, the switching node's second input.
  @usableFromInline
  var firstInner: AnyNode { current.node }

  /// Takes `node`, the switching node made over this link, as its owner; then catches up with
  /// any change of the outer node it was computed or attached across (until now it could not
  /// switch: it had no owner to relink).
  @usableFromInline
  func adopt(_ node: ValueNode<Inner>) {
    owner = node
    (node as? DerivedNode<Inner>)?.refreshInOrder()
  }

  /// The switching node's computation: the current inner property's value, switching first
  /// when the outer node changed (`mode` `.delivery`), or following the newest outer value
  /// without switching (on demand).
  @usableFromInline
  func compute(_ mode: _ReadMode, _ previous: Inner?) -> Inner? {
    guard previous != nil else { return current.node.deliveredValue() }
    guard mode == .delivery else {
      // An on-demand read while a write waits for delivery: follow the newest outer value
      // without switching; the delivery will switch. The choice is kept for the write stamp
      // it was made at, so further reads, and the delivery of the same writes, reuse it
      // rather than run `transform` again (it may start work: a request).
      //
      // The outer value is read even when the choice is reused: the value follows it, and a
      // new subscriber's first value notes what it read (see `SourceReadLog`). Unnoted, the
      // subscriber's catching-up record left the outer node out, and a delivery of its older
      // writes reached the subscriber after the first value.
      let stamp = outer.writeStampNow
      let outerValue = outer.read(.latest)
      let inner =
        onDemandChoice(at: stamp) ?? keepOnDemandChoice(transform(outerValue), at: stamp)
      // Not linked yet: a write to it does not move the stamp a pulled value is cached for.
      // The current inner property may not be linked either: its switch waits behind
      // another thread's delivery.
      if inner.node !== current.node || !(owner?.hasInput(inner.node) ?? false) {
        Engine.readsUnlinkedNode()
      }
      return inner.node.read(.latest)
    }
    // Switch once per change of `outer`, whenever the node learns of it: while the change is
    // delivered, or in a refresh after it (the node was created, or attached, while another
    // thread delivered it). A second computation for the same change just reads.
    guard let owner, choose(at: outer.changeCountIncludingStaged) else {
      return current.node.read(.delivery)
    }
    // Chosen already by a read of the same writes (inside the batch that made them), if
    // this delivery is of those writes: a choice made from newer values than the ones
    // delivered would pair the delivered outer value with another value's inner property.
    let inner =
      takeOnDemandChoice(at: Engine.newestWriteStamp(deliveredWith: outer))
      ?? transform(outer.read(.delivery))
    // The previous inner property is released at the end of this function: after the switch,
    // and outside the engine's lock (its release takes that lock).
    guard let previousInner = replace(with: inner) else {
      return inner.node.read(.delivery)
    }
    let switchedNow = Engine.switchInputs(of: owner, to: [outer, inner.node])
    withExtendedLifetime(previousInner) {}
    return switchedNow ? inner.node.read(.delivery) : inner.node.read(.latest)
  }

  /// Whether the inner property must be chosen again for the outer node's `changeCount`
  /// (it was chosen for another one); records it as chosen.
  func choose(at changeCount: UInt64) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard chosenAt != changeCount else { return false }
    chosenAt = changeCount
    return true
  }

  /// The inner property a read on demand chose at `stamp`, if one did.
  func onDemandChoice(at stamp: UInt64) -> Property<Inner>? {
    lock.lock()
    defer { lock.unlock() }
    guard let onDemand, onDemand.stamp == stamp else { return nil }
    return onDemand.inner
  }

  /// Keeps `inner` as the choice of reads on demand at `stamp`; returns it.
  func keepOnDemandChoice(_ inner: Property<Inner>, at stamp: UInt64) -> Property<Inner> {
    lock.lock()
    let replaced = onDemand
    onDemand = (inner, stamp)
    lock.unlock()
    withExtendedLifetime(replaced) {}  // released outside the lock
    return inner
  }

  /// The choice of reads on demand, if it was made at `stamp`, for the delivery of the same
  /// writes to take (`nil`: the delivery is not of the newest writes); forgets any choice
  /// either way (a delivery moves past it).
  func takeOnDemandChoice(at stamp: UInt64?) -> Property<Inner>? {
    lock.lock()
    let taken = onDemand
    onDemand = nil
    lock.unlock()
    guard let taken, let stamp, taken.stamp == stamp else { return nil }
    return taken.inner
  }

  /// The inner property followed now.
  var current: Property<Inner> {
    lock.lock()
    defer { lock.unlock() }
    return _current
  }

  /// The switching node, once created; weak because the node's compute holds this link.
  var owner: AnyNode? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return _owner
    }
    set {
      lock.lock()
      _owner = newValue
      lock.unlock()
    }
  }

  /// Follows `inner` from now on; returns the property followed until now, or `nil` if it is
  /// the same node (nothing to switch). The caller releases the returned property.
  func replace(with inner: Property<Inner>) -> Property<Inner>? {
    lock.lock()
    defer { lock.unlock() }
    guard _current.node !== inner.node else { return nil }
    let previous = _current
    _current = inner
    return previous
  }
}
