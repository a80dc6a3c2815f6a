/// The namespace of the invalidation kinds that `@ViewInvalidating` properties name.
///
/// > Note: Apple's own namespace, `UIView.Invalidations` (`NSView.Invalidations` on macOS),
/// > exists from iOS and tvOS 15 and macOS 12. A target whose deployment reaches those versions
/// > sees this name and the kinds inside it deprecated there, with fix-its to Apple's; on
/// > Linux, and on iOS and tvOS 13 and 14 and macOS 10.15 and 11, these are the names to use.
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
