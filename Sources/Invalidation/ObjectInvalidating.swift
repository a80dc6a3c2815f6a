import InvalidatingCore

/// A property of any invalidatable object that invalidates the object when its value changes.
///
/// The counterpart of ``ViewInvalidating`` for classes that are not views, such as the
/// fragments a Linux service renders and caches. The class conforms to `Invalidatable`, and
/// each invalidation is an ``ObjectInvalidatingType`` that names it:
///
/// ```swift
/// final class ReportPage: Invalidatable {
///   struct Rerender: ObjectInvalidatingType {
///     func invalidate(object page: ReportPage) { page.html = nil }
///   }
///   @ObjectInvalidating(Rerender()) var title = "Report"
///   var html: String?
/// }
/// ```
///
/// Setting the property to a different value stores it, requests each invalidation in the
/// order written, then delivers the value to the subscribers of `$name`, a read-only
/// `Property`. Setting an equal value does nothing. Inside `batch { }`, the object gets each
/// invalidation once, when the batch ends.
///
/// The wrapper's name is not Apple's `Invalidating` on purpose: inside a `UIView` or `NSView`
/// subclass, `@Invalidating` always means UIKit's or AppKit's nested type.
///
/// > Important: Each invalidator's ``ObjectInvalidatingType/Object`` must be the declaring
/// > class or one of its superclasses. Swift cannot check it where the property is declared,
/// > so the first change traps if it is not. A property of an object that is used from several
/// > threads must be written under the object's own synchronization, like any stored property.
@propertyWrapper
public struct ObjectInvalidating<Value: Equatable> {
  @usableFromInline var storage: InvalidatingStorage<Value>
  @usableFromInline let invalidations: [any ObjectInvalidatingType]
  /// Where the property is declared, as for `ViewInvalidating` (see `ViewInvalidationList`).
  @usableFromInline let origin: NodeOrigin

  /// Creates the property with its initial value and the invalidations its changes cause.
  ///
  /// Setting the initial value invalidates nothing.
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - invalidations: What a change invalidates, in the order to request it.
  ///   - file: The file that declares the property, for traces; leave the default.
  ///   - line: The line that declares the property, for traces; leave the default.
  public init<each Invalidation: ObjectInvalidatingType>(
    wrappedValue: Value, _ invalidations: repeat each Invalidation,
    file: StaticString = #fileID, line: UInt = #line
  ) {
    storage = InvalidatingStorage(wrappedValue)
    origin = .made("@ObjectInvalidating", file: file, line: line)
    var list: [any ObjectInvalidatingType] = []
    for invalidation in repeat each invalidations { list.append(invalidation) }
    self.invalidations = list
  }

  /// Unavailable: the property reaches its owner through the enclosing-instance subscript, so
  /// it can only be declared in a class that conforms to `Invalidatable`.
  @available(
    *, unavailable, message: "@ObjectInvalidating is only available on properties of classes"
  )
  public var wrappedValue: Value {
    get { fatalError("unavailable") }
    set { fatalError("unavailable") }
  }

  /// Unavailable: `$name` is provided through the enclosing-instance subscript.
  @available(
    *, unavailable, message: "@ObjectInvalidating is only available on properties of classes"
  )
  public var projectedValue: Property<Value> {
    fatalError("unavailable")
  }

  /// Reads and writes the property of `owner`: the accessor Swift calls for `owner.name`.
  ///
  /// Writing an equal value does nothing. Writing a different one stores it, requests the
  /// invalidations in order, then delivers the value to `$name`'s subscribers.
  ///
  /// - Parameters:
  ///   - owner: The object that declares the property.
  ///   - wrappedKeyPath: The key path of the property.
  ///   - storageKeyPath: The key path of this wrapper in `owner`.
  @inlinable
  public static subscript<Owner: Invalidatable>(
    _enclosingInstance owner: Owner,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get {
      // A read inside a view's tracked pass, or a computed property, is a dependency.
      if _slowPath(ThreadContext.isTrackingReads) {
        owner[keyPath: storageKeyPath].storage.recordTrackedRead(
          of: owner, declaredAt: owner[keyPath: storageKeyPath].origin)
      } else if _slowPath(ObservationVisibility.isTracking(ThreadContext.existing)) {
        // A read inside Observation's tracking (SwiftUI, UIKit's own) is one of `$name`.
        owner[keyPath: storageKeyPath].storage.showReadToObservation(
          declaredAt: owner[keyPath: storageKeyPath].origin)
      }
      return owner[keyPath: storageKeyPath].storage.value
    }
    // Always inlined, for the reason given on `ViewInvalidating`'s accessor.
    @inline(__always) set {
      guard owner[keyPath: storageKeyPath].storage.replace(with: newValue) else { return }
      let context = ThreadContext.current
      let scope = context.openScopeIdentity()
      if scope == 0 || owner[keyPath: storageKeyPath].storage.claimInvalidation(inScope: scope) {
        if _slowPath(Tracing.isOn) {
          Self.requestTraced(
            owner[keyPath: storageKeyPath].invalidations, from: owner, context,
            declaredAt: owner[keyPath: storageKeyPath].origin)
        } else {
          for invalidation in owner[keyPath: storageKeyPath].invalidations {
            invalidation.request(from: owner, context, false)
          }
        }
      }
      owner[keyPath: storageKeyPath].storage.publish()
    }
  }

  /// Requests each of `invalidations` from `owner`, in order, while a tracer records: the set
  /// of the property declared at `origin` is their cause.
  @usableFromInline
  static func requestTraced<Owner: Invalidatable>(
    _ invalidations: [any ObjectInvalidatingType], from owner: Owner, _ context: ThreadContext,
    declaredAt origin: NodeOrigin
  ) {
    let cause = Tracing.set(of: owner, declaredAt: origin, context)
    Tracing.with(cause, context) {
      for invalidation in invalidations { invalidation.request(from: owner, context, true) }
    }
  }

  /// The read-only `Property` that `$name` returns: the property's value and every change.
  ///
  /// The property is created on first use; until then the wrapper publishes nothing.
  ///
  /// - Parameters:
  ///   - owner: The object that declares the property.
  ///   - projectedKeyPath: The key path of `$name`.
  ///   - storageKeyPath: The key path of this wrapper in `owner`.
  public static subscript<Owner: Invalidatable>(
    _enclosingInstance owner: Owner,
    projected projectedKeyPath: KeyPath<Owner, Property<Value>>,
    storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) -> Property<Value> {
    owner[keyPath: storageKeyPath].storage.projectedProperty(
      declaredAt: owner[keyPath: storageKeyPath].origin)
  }
}
