#if canImport(AppKit) && !canImport(UIKit)
  import AppKit
  import InvalidatingPlatform

  @available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
  extension Invalidations {
    /// A change that invalidates the view's restorable state.
    ///
    /// Calls `invalidateRestorableState()`, so that AppKit saves the view's state for
    /// restoration at its next opportunity.
    ///
    /// Create it with ``ViewInvalidatingType/restorableState``:
    /// `@ViewInvalidating(.restorableState) var ...`.
    ///
    /// > Important: This is a back-port of AppKit's NSView.Invalidations.RestorableState.
    /// >
    /// > Deprecated only from macOS 12 on, where Apple's type exists;
    /// > on macOS 10.15 and 11, this is the one to use.
    @available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations.RestorableState")
    public struct RestorableState: ViewInvalidatingType, Sendable {
      /// Creates the invalidation.
      public nonisolated init() {}

      /// Marks the restorable state of `view` as changed, at once.
      ///
      /// - Parameter view: The view to invalidate.
      public func invalidate(view: PlatformView) {
        view.invalidateRestorableState()
      }
    }
  }

  @available(macOS, deprecated: 12.0, message: "Use NSView.Invalidations")
  extension ViewInvalidatingType where Self == Invalidations.RestorableState {
    /// A change that invalidates the view's restorable state.
    ///
    /// `@ViewInvalidating(.restorableState) var ...` marks the view's restorable state as
    /// changed whenever the property changes.
    ///
    /// > Important: This is a back-port of AppKit's NSViewInvalidating.restorableState.
    /// >
    /// > Deprecated only from macOS 12 on, where Apple's member exists;
    /// > on macOS 10.15 and 11, this is the one to use.
    @available(
      macOS, deprecated: 12.0, message: "NSView.Invalidating takes its own .restorableState"
    )
    public nonisolated static var restorableState: Self { Self() }
  }
#endif
