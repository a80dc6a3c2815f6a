import InvalidatingPlatform

@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
extension Invalidations {
  /// A change that invalidates the view's intrinsic content size.
  ///
  /// Calls `invalidateIntrinsicContentSize()`, which asks the layout system to size the view
  /// again.
  ///
  /// Create it with ``ViewInvalidatingType/intrinsicContentSize``:
  /// `@ViewInvalidating(.intrinsicContentSize) var ...`.
  ///
  /// > Important: This is a back-port of UIKit's UIView.Invalidations.IntrinsicContentSize
  /// > (AppKit's NSView.Invalidations.IntrinsicContentSize).
  /// >
  /// > Deprecated only from iOS and tvOS 15 and macOS 12 on, where Apple's type exists; on Linux
  /// > and on older systems, this is the one to use.
  @available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations.IntrinsicContentSize")
  @available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations.IntrinsicContentSize")
  @available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations.IntrinsicContentSize")
  public struct IntrinsicContentSize: ViewInvalidatingType, Sendable {
    /// Creates the invalidation.
    public nonisolated init() {}

    /// Tells `view` that its intrinsic content size changed, at once.
    ///
    /// - Parameter view: The view to invalidate.
    public func invalidate(view: PlatformView) {
      view.invalidateIntrinsicContentSize()
    }
  }
}

@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
extension ViewInvalidatingType where Self == Invalidations.IntrinsicContentSize {
  /// A change that invalidates the view's intrinsic content size.
  ///
  /// `@ViewInvalidating(.intrinsicContentSize) var ...` tells the view that its intrinsic
  /// content size changed whenever the property changes.
  ///
  /// > Important: This is a back-port of UIKit's UIViewInvalidating.intrinsicContentSize.
  /// >
  /// > Deprecated only from iOS and tvOS 15 and macOS 12 on, where Apple's member exists; on Linux
  /// > and on older systems, this is the one to use.
  @available(
    iOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .intrinsicContentSize"
  )
  @available(
    tvOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .intrinsicContentSize"
  )
  @available(
    macOS, deprecated: 12.0, message: "NSView.Invalidating takes its own .intrinsicContentSize"
  )
  public nonisolated static var intrinsicContentSize: Self { Self() }
}
