import InvalidatingPlatform

@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
extension Invalidations {
  /// A change that requires the view to redraw its content.
  ///
  /// Marks the view as needing display: `setNeedsDisplay()` with UIKit and on ``InvalidatingPlatform/HeadlessView``,
  /// `needsDisplay = true` with AppKit.
  ///
  /// Create it with ``ViewInvalidatingType/display``:
  /// `@ViewInvalidating(.display) var ...`.
  ///
  /// > Important: This is a back-port of UIKit's UIView.Invalidations.Display
  /// > (AppKit's NSView.Invalidations.Display).
  /// >
  /// > Deprecated only from iOS and tvOS 15 and macOS 12 on, where Apple's type exists; on Linux
  /// > and on older systems, this is the one to use.
  @available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations.Display")
  @available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations.Display")
  @available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations.Display")
  public struct Display: ViewInvalidatingType, Sendable {
    /// Creates the invalidation.
    public nonisolated init() {}

    /// Marks `view` as needing display, at once.
    ///
    /// - Parameter view: The view to invalidate.
    public func invalidate(view: PlatformView) {
      #if canImport(AppKit) && !canImport(UIKit)
        view.needsDisplay = true
      #else
        view.setNeedsDisplay()
      #endif
    }
  }
}

@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
extension ViewInvalidatingType where Self == Invalidations.Display {
  /// A change that requires the view to redraw its content.
  ///
  /// `@ViewInvalidating(.display) var ...` marks the view as needing display whenever the
  /// property changes.
  ///
  /// > Important: This is a back-port of UIKit's UIViewInvalidating.display.
  /// >
  /// > Deprecated only from iOS and tvOS 15 and macOS 12 on, where Apple's member exists; on Linux
  /// > and on older systems, this is the one to use.
  @available(iOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .display")
  @available(tvOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .display")
  @available(macOS, deprecated: 12.0, message: "NSView.Invalidating takes its own .display")
  public nonisolated static var display: Self { Self() }
}
