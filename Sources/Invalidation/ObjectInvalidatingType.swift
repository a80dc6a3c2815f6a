import InvalidatingCore

/// A kind of invalidation that a change to an `@ObjectInvalidating` property causes in the
/// object that declares it.
///
/// The counterpart of ``ViewInvalidatingType`` for objects that are not views: a Linux
/// service's cache of rendered fragments, a document that must be saved, a model that must be
/// re-validated. The invalidator names the class it invalidates, so its
/// ``invalidate(object:)`` gets that class and can call whatever it offers:
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
/// Inside a `batch { }` (or while the engine delivers a change) an object gets each
/// invalidation at most once, when the batch ends. Two invalidations are the same when they
/// have the same type and, if the type is `Equatable`, are equal.
public protocol ObjectInvalidatingType<Object> {
  /// The class of the objects this invalidator invalidates: the class that declares the
  /// `@ObjectInvalidating` property, or one of its superclasses.
  associatedtype Object: Invalidatable

  /// Tells `object` that the aspect this type stands for is out of date.
  ///
  /// Called after the property stored its new value, so `object` already reads it.
  ///
  /// - Parameter object: The object whose property changed.
  func invalidate(object: Object)
}

extension ObjectInvalidatingType {
  /// Asks the engine to run this invalidation on `owner`, deduplicated inside batches; a
  /// deferred invalidation holds `owner` weakly, as a view's does.
  ///
  /// - Parameters:
  ///   - owner: The object that declares the property; it must be an ``Object``.
  ///   - context: The calling thread's context.
  ///   - traced: `Tracing.isOn`, asked by the caller.
  @usableFromInline
  func request<Owner: Invalidatable>(
    from owner: Owner, _ context: ThreadContext, _ traced: Bool
  ) {
    guard let object = owner as? Object else {
      Engine.misuse(
        """
        \(Self.self) invalidates \(Object.self), but the property belongs to \(Owner.self): \
        list only invalidations written for \(Owner.self) (or a superclass of it) in its \
        @ObjectInvalidating properties.
        """)
    }
    object.invalidate(by: self, in: context, traced: traced) { object, invalidation in
      invalidation.invalidate(object: object)
    }
  }
}
