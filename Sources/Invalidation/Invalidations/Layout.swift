import InvalidatingPlatform

@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
extension Invalidations {
  /// A change that invalidates the layout of the view's subviews.
  ///
  /// Marks the view as needing layout: `setNeedsLayout()` with UIKit and on ``InvalidatingPlatform/HeadlessView``,
  /// `needsLayout = true` with AppKit. The layout pass then runs once, however many properties
  /// changed.
  ///
  /// Create it with ``ViewInvalidatingType/layout``:
  /// `@ViewInvalidating(.layout) var ...`.
  ///
  /// > Important: This is a back-port of UIKit's UIView.Invalidations.Layout
  /// > (AppKit's NSView.Invalidations.Layout).
  /// >
  /// > Deprecated only from iOS and tvOS 15 and macOS 12 on, where Apple's type exists; on Linux
  /// > and on older systems, this is the one to use.
  @available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations.Layout")
  @available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations.Layout")
  @available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations.Layout")
  public struct Layout: ViewInvalidatingType, Sendable {
    /// Creates the invalidation.
    public nonisolated init() {}

    /// Marks `view` as needing layout, at once.
    ///
    /// - Parameter view: The view to invalidate.
    public func invalidate(view: PlatformView) {
      #if canImport(AppKit) && !canImport(UIKit)
        view.needsLayout = true
      #else
        view.setNeedsLayout()
      #endif
    }
  }
}

@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
extension ViewInvalidatingType where Self == Invalidations.Layout {
  /// A change that invalidates the layout of the view's subviews.
  ///
  /// `@ViewInvalidating(.layout) var ...` marks the view as needing layout whenever the
  /// property changes.
  ///
  /// > Important: This is a back-port of UIKit's UIViewInvalidating.layout.
  /// >
  /// > Deprecated only from iOS and tvOS 15 and macOS 12 on, where Apple's member exists; on Linux
  /// > and on older systems, this is the one to use.
  @available(iOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .layout")
  @available(tvOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .layout")
  @available(macOS, deprecated: 12.0, message: "NSView.Invalidating takes its own .layout")
  public nonisolated static var layout: Self { Self() }
}
