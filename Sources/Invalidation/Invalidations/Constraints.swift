import InvalidatingPlatform

@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
extension Invalidations {
  /// A change that invalidates the view's constraints.
  ///
  /// Marks the view as needing a constraints pass: `setNeedsUpdateConstraints()` with UIKit and
  /// on ``InvalidatingPlatform/HeadlessView``, `needsUpdateConstraints = true` with AppKit.
  ///
  /// Create it with ``ViewInvalidatingType/constraints``:
  /// `@ViewInvalidating(.constraints) var ...`.
  ///
  /// > Important: This is a back-port of UIKit's UIView.Invalidations.Constraints
  /// > (AppKit's NSView.Invalidations.Constraints).
  /// >
  /// > Deprecated only from iOS and tvOS 15 and macOS 12 on, where Apple's type exists; on Linux
  /// > and on older systems, this is the one to use.
  @available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations.Constraints")
  @available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations.Constraints")
  @available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations.Constraints")
  public struct Constraints: ViewInvalidatingType, Sendable {
    /// Creates the invalidation.
    public nonisolated init() {}

    /// Marks `view` as needing a constraints pass, at once.
    ///
    /// - Parameter view: The view to invalidate.
    public func invalidate(view: PlatformView) {
      #if canImport(AppKit) && !canImport(UIKit)
        view.needsUpdateConstraints = true
      #else
        view.setNeedsUpdateConstraints()
      #endif
    }
  }
}

@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
extension ViewInvalidatingType where Self == Invalidations.Constraints {
  /// A change that invalidates the view's constraints.
  ///
  /// `@ViewInvalidating(.constraints) var ...` marks the view as needing a constraints pass
  /// whenever the property changes.
  ///
  /// > Important: This is a back-port of UIKit's UIViewInvalidating.constraints.
  /// >
  /// > Deprecated only from iOS and tvOS 15 and macOS 12 on, where Apple's member exists; on Linux
  /// > and on older systems, this is the one to use.
  @available(iOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .constraints")
  @available(tvOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .constraints")
  @available(macOS, deprecated: 12.0, message: "NSView.Invalidating takes its own .constraints")
  public nonisolated static var constraints: Self { Self() }
}
