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

  @usableFromInline
  init(_ value: Value) {
    self.value = value
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
    projection?.publish(value)
  }

  /// Records a read of the property, whose owner is `owner`, in the tracked run under way on
  /// this thread: a dependency of a computed property, or of a pass of another object than
  /// `owner` (a view's own properties invalidate it already).
  ///
  /// - Parameter origin: Where the property is declared (see `projectedProperty(declaredAt:)`).
  @usableFromInline
  mutating func recordTrackedRead(of owner: AnyObject, declaredAt origin: NodeOrigin?) {
    guard let tracker = ThreadContext.current.computation.activeTracker, tracker.owner !== owner
    else {
      return
    }
    tracker.record(projectedProperty(declaredAt: origin).node)
  }

  /// Shows a read of the property to Observation's tracking, as a read of `$name` (see
  /// `ObservationVisibility`).
  ///
  /// - Parameter origin: Where the property is declared (see `projectedProperty(declaredAt:)`).
  @usableFromInline
  mutating func showReadToObservation(declaredAt origin: NodeOrigin?) {
    projectedProperty(declaredAt: origin).showReadToObservation()
  }

  /// The projected property, created with the current value on first use.
  ///
  /// - Parameter origin: Where the property is declared: what traces call its `$name`.
  mutating func projectedProperty(declaredAt origin: NodeOrigin?) -> Property<Value> {
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
  /// Where the property is declared: what traces give as the place of its writes.
  @usableFromInline let origin: NodeOrigin?

  init(_ value: Value, origin: NodeOrigin?) {
    source = SourceNode(value, origin: origin)
    property = Property(node: source)
    self.origin = origin
  }

  deinit {
    source.complete()
  }

  /// Writes `value` to the source unless it holds it already; traced, as made where the
  /// property is declared.
  @inlinable
  func publish(_ value: Value) {
    if source.currentValue() != value {
      source.write(value, file: origin?.file ?? "", line: origin?.line ?? 0)
    }
  }
}

/// An invalidating property's wrapper, as a trace finds it among its owner's stored
/// properties.
protocol _TracedInvalidatingWrapper {
  /// Where the property is declared: what tells one property from another.
  var declarationOrigin: NodeOrigin? { get }
}

extension ViewInvalidating: _TracedInvalidatingWrapper {
  var declarationOrigin: NodeOrigin? { invalidations.origin }
}

extension ViewInvalidationList {
  /// ``origin``, for the wrapper's inlinable accessors (which take it on their slow paths).
  @usableFromInline
  var declaration: NodeOrigin? { origin }
}

extension ObjectInvalidating: _TracedInvalidatingWrapper {
  var declarationOrigin: NodeOrigin? { origin }
}

extension Tracing {
  /// The cause of a set of the invalidating property of `owner` declared at `origin`, made now
  /// on `context`'s thread.
  ///
  /// A setter has no key path worth handing to its traced steps (building one would cost
  /// every set), so the property's name is found once, by looking through its owner's stored
  /// properties for the wrapper declared there, and kept.
  static func set(
    of owner: AnyObject, declaredAt origin: NodeOrigin, _ context: ThreadContext
  ) -> Cause {
    set(
      of: owner, property: propertyName(of: owner, declaredAt: origin),
      declaredAt: origin.file.map { TraceSite(file: $0, line: origin.line) }, context)
  }

  private static func propertyName(of owner: AnyObject, declaredAt origin: NodeOrigin) -> String {
    Tracing.propertyName(declaredAt: origin) {
      var mirror: Mirror? = Mirror(reflecting: owner)
      while let current = mirror {
        for child in current.children {
          guard let wrapper = child.value as? any _TracedInvalidatingWrapper,
            let declared = wrapper.declarationOrigin, declared === origin, let label = child.label
          else { continue }
          return label.hasPrefix("_") ? String(label.dropFirst()) : label
        }
        mirror = current.superclassMirror
      }
      return nil
    }
  }
}
