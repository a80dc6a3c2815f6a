/// The namespace of the invalidation kinds that `@ViewInvalidating` properties name.
///
/// > Note: Deprecated only where Apple's own namespace exists. From iOS and tvOS 15 and macOS 12
/// > on, the compiler offers a fix-it to `UIView.Invalidations` (`NSView.Invalidations` on
/// > macOS). On Linux, and on iOS and tvOS 13 and 14 and macOS 10.15 and 11, this is the name
/// > to use, and so are the kinds inside it.
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
