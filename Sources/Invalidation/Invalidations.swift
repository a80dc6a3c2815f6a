/// The namespace of the invalidation kinds that `@ViewInvalidating` properties name.
///
/// Each kind is a type in this namespace, conforming to ``ViewInvalidatingType``, and a static
/// member of that protocol that creates it: ``Invalidations/Layout`` is written `.layout`.
/// Extend the namespace with your own kinds:
///
/// ```swift
/// extension Invalidations {
///   struct Focus: ViewInvalidatingType {
///     func invalidate(view: PlatformView) { view.setNeedsDisplay(view.bounds) }
///   }
/// }
/// ```
///
/// Declare such extensions at file scope: inside the body of a `UIView` or `NSView` subclass,
/// the name `Invalidations` means UIKit's or AppKit's nested type instead.
///
/// > Important: This is a back-port of UIKit's UIView.Invalidations (AppKit's
/// > NSView.Invalidations).
@available(iOS, deprecated: 15.0, renamed: "UIView.Invalidations")
@available(tvOS, deprecated: 15.0, renamed: "UIView.Invalidations")
@available(macOS, deprecated: 12.0, renamed: "NSView.Invalidations")
public enum Invalidations {}
