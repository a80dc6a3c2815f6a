// The fix-it check's sample (scripts/check-apple-glue): code written against the back-port that
// uses every back-ported name, the way an app uses them. The check makes the compiler report
// each deprecation as it would once the deployment target reaches iOS 15 or macOS 12, applies
// every fix-it, and compiles the result against the stand-in of Apple's API: the fix-its alone
// must migrate this file.
import InvalidatingInvalidation
import InvalidatingPlatform

#if canImport(UIKit)
  import UIKit
#elseif canImport(AppKit)
  import AppKit
#endif

extension Invalidations {
  /// A custom invalidator written as the migration article recommends: Apple's protocol does
  /// not isolate `invalidate(view:)` to the main actor, so the body says it runs there.
  struct Focus: ViewInvalidatingType {
    func invalidate(view: PlatformView) {
      MainActor.assumeIsolated { view.setNeedsDisplay(view.bounds) }
    }
  }

  /// The other spelling that migrates unchanged (Swift 6.2 and later): a main-actor type whose
  /// conformance is isolated to the main actor.
  @MainActor
  struct Ring: @MainActor ViewInvalidatingType {
    func invalidate(view: PlatformView) { view.setNeedsDisplay(view.bounds) }
  }
}

extension ViewInvalidatingType where Self == Invalidations.Focus {
  static var focus: Self { .init() }
}

extension ViewInvalidatingType where Self == Invalidations.Ring {
  static var ring: Self { .init() }
}

/// Properties with one, several and ten invalidations, built-in and custom.
final class SampleView: PlatformView {
  @ViewInvalidating(.layout) var one = 0
  @ViewInvalidating(.display, .focus, .ring) var three = ""
  #if canImport(UIKit)
    @ViewInvalidating(
      .layout, .display, .constraints, .intrinsicContentSize, .configuration, .focus, .ring,
      .layout, .display, .constraints)
    var ten = 0.0
  #else
    @ViewInvalidating(
      .layout, .display, .constraints, .intrinsicContentSize, .restorableState, .focus, .ring,
      .layout, .display, .constraints)
    var ten = 0.0
  #endif
}

/// The built-in invalidations by type name, performed by hand.
@MainActor
func invalidateByHand(_ view: PlatformView) {
  let layout: Invalidations.Layout = .layout
  layout.invalidate(view: view)
  Invalidations.Display().invalidate(view: view)
  Invalidations.Constraints().invalidate(view: view)
  Invalidations.IntrinsicContentSize().invalidate(view: view)
  #if canImport(UIKit)
    Invalidations.Configuration().invalidate(view: view)
  #else
    Invalidations.RestorableState().invalidate(view: view)
  #endif
}

/// The protocol as a constraint, under its name and under the first back-port's name.
@MainActor
func perform(_ invalidation: some ViewInvalidatingType, on view: PlatformView) {
  invalidation.invalidate(view: view)
}

#if canImport(UIKit)
  @MainActor
  func performOnUIView(_ invalidation: some UIViewInvalidatingType, on view: UIView) {
    invalidation.invalidate(view: view)
  }
#else
  @MainActor
  func performOnNSView(_ invalidation: some NSViewInvalidatingType, on view: NSView) {
    invalidation.invalidate(view: view)
  }
#endif
