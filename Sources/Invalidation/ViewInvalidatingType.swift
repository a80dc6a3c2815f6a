import InvalidatingPlatform

/// A kind of invalidation that a change to a `@ViewInvalidating` property causes in its view.
///
/// > Note: Apple's own protocol, `UIViewInvalidating` (`NSViewInvalidating` on macOS), exists
/// > from iOS and tvOS 15 and macOS 12. A target whose deployment reaches those versions sees
/// > this name deprecated there, with a fix-it to Apple's; on Linux, and on iOS and tvOS 13
/// > and 14 and macOS 10.15 and 11, this is the name to use.
///
/// The built-in kinds live in ``Invalidations`` and are spelled `.layout`, `.display`,
/// `.constraints`, `.intrinsicContentSize`, plus `.configuration` with UIKit and
/// `.restorableState` with AppKit. Add your own with a type that conforms to this protocol, and
/// a static member that names it:
///
/// ```swift
/// extension Invalidations {
///   struct Focus: ViewInvalidatingType {
///     func invalidate(view: PlatformView) { view.setNeedsDisplay(view.bounds) }  // the ring
///   }
/// }
/// extension ViewInvalidatingType where Self == Invalidations.Focus {
///   static var focus: Self { .init() }
/// }
///
/// final class ChipView: PlatformView {
///   @ViewInvalidating(.layout, .focus) var isSelected = false
/// }
/// ```
///
/// Inside a `batch { }` (or while the engine delivers a change) a view gets each invalidation
/// at most once, when the batch ends. Two invalidations are the same when they have the same
/// type and, if the type is `Equatable`, are equal: make an invalidator that carries
/// parameters `Equatable`, so that differently configured ones are all performed.
///
/// ### Migrating to Apple's protocol
///
/// Apple's `UIViewInvalidating` and `NSViewInvalidating` are not isolated to the main actor,
/// so once the fix-its rename this protocol, an `invalidate(view:)` that calls the view's
/// main-actor methods no longer compiles. Write the body so that it says where it runs, and
/// the fix-its alone migrate it; both spellings compile against this protocol unchanged:
///
/// ```swift
/// extension Invalidations {
///   struct Halo: ViewInvalidatingType {
///     func invalidate(view: PlatformView) {
///       MainActor.assumeIsolated { view.setNeedsDisplay(view.bounds) }
///     }
///   }
/// }
/// ```
///
/// or, with Swift 6.2 and later, a main-actor type whose conformance is isolated:
/// `@MainActor struct Halo: @MainActor ViewInvalidatingType`. See
/// <doc:MigratingToAppleInvalidating>.
///
/// > Important: This is a back-port of UIKit's UIViewInvalidating (AppKit's
/// > NSViewInvalidating). Views belong to the main actor, and so does this protocol: a
/// > conforming type is main-actor isolated unless it opts out. Apple's protocol is not
/// > isolated; see above for code that compiles against both.
@available(iOS, deprecated: 15.0, renamed: "UIViewInvalidating")
@available(tvOS, deprecated: 15.0, renamed: "UIViewInvalidating")
@available(macOS, deprecated: 12.0, renamed: "NSViewInvalidating")
@MainActor
public protocol ViewInvalidatingType {
  /// Tells `view` that the aspect this type stands for is out of date.
  ///
  /// Called by `@ViewInvalidating` after the property stored its new value, so `view`
  /// already reads the new value. Request the update (`setNeedsLayout()` and the like); do
  /// not perform it here.
  ///
  /// - Parameter view: The view whose property changed.
  func invalidate(view: PlatformView)
}

#if canImport(UIKit)
  /// The name of ``ViewInvalidatingType`` that the first back-port of UIKit's invalidation
  /// wrapper used; both names work.
  ///
  /// > Important: This is a back-port of UIKit's UIViewInvalidating.
  @available(iOS, deprecated: 15.0, renamed: "UIViewInvalidating")
  @available(tvOS, deprecated: 15.0, renamed: "UIViewInvalidating")
  public typealias UIViewInvalidatingType = ViewInvalidatingType
#elseif canImport(AppKit)
  /// The name of ``ViewInvalidatingType`` that the first back-port of AppKit's invalidation
  /// wrapper used; both names work.
  ///
  /// > Important: This is a back-port of AppKit's NSViewInvalidating.
  @available(macOS, deprecated: 12.0, renamed: "NSViewInvalidating")
  public typealias NSViewInvalidatingType = ViewInvalidatingType
#endif
