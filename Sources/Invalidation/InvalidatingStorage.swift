import InvalidatingCore

/// The value of an invalidating property, and the source that publishes it through `$name`.
///
/// The source is created the first time `$name` is read: a property nobody observes holds its
/// value and a `nil` reference, nothing more.
@usableFromInline
struct InvalidatingStorage<Value: Equatable> {
  /// The property's current value.
  @usableFromInline var value: Value
  /// The projected property and its source, once `$name` has been read.
  @usableFromInline var projection: InvalidatingProjection<Value>?
  /// The batch or delivery (its scope identity) in which the invalidations were last requested.
  @usableFromInline var requestedInScope: UInt64 = 0
  /// Where the property is declared: shared by every instance of the declaring class (see
  /// `NodeOrigin`). Traces give it as the place of a set, whose setter takes no arguments.
  @usableFromInline let origin: NodeOrigin

  @usableFromInline
  init(_ value: Value, origin: NodeOrigin) {
    self.value = value
    self.origin = origin
  }

  /// Stores `newValue` unless it equals the current value; returns whether it did.
  @inlinable
  mutating func replace(with newValue: Value) -> Bool {
    guard value != newValue else { return false }
    value = newValue
    return true
  }

  /// Whether a change inside a batch or delivery must request the property's invalidations:
  /// only the first time in it, since the engine would drop the repeats anyway. (Outside one,
  /// `scope` is 0 and callers skip this call: the invalidations run at once, every time.) Ten thousand sets in a batch so search the pending
  /// invalidations once, not ten thousand times.
  ///
  /// A call of its own, not folded into `replace(with:)`: the accessors reach the storage
  /// through key paths, which the optimizer turns into direct accesses only for calls that
  /// return a `Bool` like these (an enum result made it walk the key paths at run time).
  ///
  /// - Parameter scope: `ThreadContext.openScopeIdentity()`, not 0.
  @inlinable
  mutating func claimInvalidation(inScope scope: UInt64) -> Bool {
    guard requestedInScope != scope else { return false }
    requestedInScope = scope
    return true
  }

  /// Gives the current value to `$name`'s subscribers, unless they already have it.
  ///
  /// Called after the invalidations ran; if one of them wrote the property again, that nested
  /// write has published the newer value already, and publishing the older one now would
  /// leave the subscribers behind the property.
  @inlinable
  func publish() {
    projection?.publish(value, origin)
  }

  /// The place traces give a set of the property: where it is declared.
  var declaration: TraceSite? {
    origin.file.map { TraceSite(file: $0, line: origin.line) }
  }

  /// Records a read of the property, whose owner is `owner`, in the tracked run under way on
  /// this thread: a dependency of a computed property, or of a pass of another object than
  /// `owner` (a view's own properties invalidate it already).
  @usableFromInline
  mutating func recordTrackedRead(of owner: AnyObject) {
    guard let tracker = ThreadContext.current.activeTracker, tracker.owner !== owner else {
      return
    }
    tracker.record(projectedProperty().node)
  }

  /// The projected property, created with the current value on first use.
  mutating func projectedProperty() -> Property<Value> {
    if let projection { return projection.property }
    let created = InvalidatingProjection(value, origin: origin)
    projection = created
    return created.property
  }
}

/// The source behind `$name` and the read-only property that exposes it.
///
/// A class, so that the copies of a wrapper share one source; when the owner of the property
/// is freed, the source completes and so do the subscriptions to `$name`.
@usableFromInline
final class InvalidatingProjection<Value: Equatable> {
  @usableFromInline let source: SourceNode<Value>
  let property: Property<Value>

  init(_ value: Value, origin: NodeOrigin) {
    source = SourceNode(value, origin: origin)
    property = Property(node: source)
  }

  deinit {
    source.complete()
  }

  /// Writes `value` to the source unless it holds it already; traced, as made where the
  /// property is declared (`origin`).
  @inlinable
  func publish(_ value: Value, _ origin: NodeOrigin) {
    if source.currentValue() != value {
      source.write(value, file: origin.file ?? "", line: origin.line)
    }
  }
}
