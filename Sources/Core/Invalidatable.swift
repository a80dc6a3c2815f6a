/// An object the engine can invalidate: a view that must lay itself out again, a rendered
/// fragment that must be redrawn, a service's cache that must be rebuilt.
///
/// The engine reaches an invalidatable object through ``invalidate(by:_:)-(_,()->Void)``. Outside batches
/// and deliveries the invalidation runs at once; inside them it is deferred to their end and
/// run once per distinct invalidator, in the order first requested. That is how ten thousand
/// writes in one `batch` cost a view one layout pass.
///
/// `HeadlessView`, and `UIView`/`NSView` on Apple platforms, conform. A Linux service class
/// conforms with an empty extension and can then declare invalidating properties of its own.
public protocol Invalidatable: AnyObject {}

extension Invalidatable {
  /// Runs `perform`, which invalidates this object in the way `invalidator` names, at once or,
  /// inside a batch or a delivery, once at its end.
  ///
  /// Two requests are the same invalidation when they target the same object with invalidators
  /// of the same type that are equal (when the type is `Equatable`); the second is dropped.
  ///
  /// - Parameters:
  ///   - invalidator: What kind of invalidation this is, for deduplication.
  ///   - perform: Performs the invalidation. Runs on the calling thread, before the outermost
  ///     batch or delivery that was open on it returns.
  @inlinable
  public func invalidate<Invalidator>(
    by invalidator: Invalidator, _ perform: @escaping () -> Void
  ) {
    ThreadContext.withCurrent { context in
      if _slowPath(Tracing.isOn) {
        context.invalidateTraced(self, by: invalidator, perform)
        return
      }
      guard context.scope.depth > 0 else {
        perform()
        return
      }
      context.deferInvalidation(of: self, by: invalidator) { perform }
    }
  }

  /// Runs `perform(self, invalidator)` at once or, inside a batch or a delivery, once at its
  /// end; the same as ``invalidate(by:_:)-(_,()->Void)`` but cheaper on the hot path.
  ///
  /// `perform` receives the object and the invalidator, so it can be a closure that captures
  /// nothing, which costs no allocation when the invalidation runs at once.
  ///
  /// ```swift
  /// view.invalidate(by: Layout()) { view, _ in view.setNeedsLayout() }
  /// ```
  ///
  /// - Parameters:
  ///   - invalidator: What kind of invalidation this is, for deduplication.
  ///   - perform: Performs the invalidation on the object it is given.
  @inlinable
  public func invalidate<Invalidator>(
    by invalidator: Invalidator, _ perform: @escaping (Self, Invalidator) -> Void
  ) {
    ThreadContext.withCurrent { invalidate(by: invalidator, in: $0, perform) }
  }

  /// ``invalidate(by:_:)-(_,(Self,_)->Void)`` for a caller that has the thread's context at hand.
  @inlinable
  package func invalidate<Invalidator>(
    by invalidator: Invalidator, in context: ThreadContext,
    _ perform: @escaping (Self, Invalidator) -> Void
  ) {
    invalidate(by: invalidator, in: context, traced: Tracing.isOn, perform)
  }

  /// ``invalidate(by:in:_:)`` for a caller that asked `Tracing.isOn` already (an invalidating
  /// property's setter, once for all its invalidations): `traced` is what it found.
  @inlinable @inline(__always)
  package func invalidate<Invalidator>(
    by invalidator: Invalidator, in context: ThreadContext, traced: Bool,
    _ perform: @escaping (Self, Invalidator) -> Void
  ) {
    if _slowPath(traced) {
      context.invalidateTraced(self, by: invalidator) { [weak self] in
        if let self { perform(self, invalidator) }
      }
      return
    }
    guard context.scope.depth > 0 else {
      perform(self, invalidator)
      return
    }
    // Deferred, the object is held weakly: releasing it inside the batch frees it, and its
    // invalidation is dropped. The closure is only made for a request that is not a repeat.
    context.deferInvalidation(of: self, by: invalidator) {
      { [weak self] in
        if let self { perform(self, invalidator) }
      }
    }
  }
}
