import InvalidatingCore
import InvalidatingPlatform

/// A property of a view that invalidates the view when its value changes.
///
/// > Note: Apple's own wrapper, `UIView.Invalidating` (`NSView.Invalidating` on macOS), exists
/// > from iOS and tvOS 15 and macOS 12. A target whose deployment reaches those versions sees
/// > this name deprecated there, with a fix-it to Apple's; on Linux, and on iOS and tvOS 13
/// > and 14 and macOS 10.15 and 11, this is the name to use. See
/// > <doc:MigratingToAppleInvalidating>.
///
/// Name the invalidations a change causes; setting the property to a different value stores
/// it, then requests each invalidation from the view, in the order written:
///
/// ```swift
/// final class BadgeView: PlatformView {
///   @ViewInvalidating(.layout) var cornerRadius: Double = 12
///   @ViewInvalidating(.display, .layout, .intrinsicContentSize) var text = ""
/// }
///
/// let badge = BadgeView(frame: .zero)
/// badge.cornerRadius = 4     // stores 4, then requests layout
/// badge.cornerRadius = 4     // equal value: nothing happens
/// ```
///
/// The built-in invalidations are in ``Invalidations``; your own conform to
/// ``ViewInvalidatingType``. A property takes any number of them (Apple's wrapper takes up to
/// ten), and an invalidation reads the property's new value when it runs.
///
/// ### Observing the property
///
/// `$name` is a read-only `Property` that delivers every change, after the view was
/// invalidated, so a view property can be mapped, combined and bound like any other state:
///
/// ```swift
/// let token = badge.$text.subscribe { print("text is now", $0) }
/// ```
///
/// ### Batches
///
/// Inside `batch { }`, and while the engine delivers a change to bindings, a view gets each
/// invalidation at most once, at the end: a hundred changes to its properties cost it one
/// `setNeedsLayout()`. There, `$name`'s subscribers run when the batch ends, before the
/// invalidations.
///
/// ### Cost
///
/// The wrapper stores the value, one 64-bit word of 3-bit codes for its invalidations (and,
/// in its top bits, the number of the place the property is declared, for traces), an array
/// that stays empty (and unallocated) unless custom invalidators are named, and a reference
/// that stays `nil` until `$name` is first read. Naming only built-in invalidations allocates
/// nothing.
///
/// > Important: This is a back-port of UIKit's UIView.Invalidating. On macOS it stands for
/// > AppKit's NSView.Invalidating, and on Linux it drives ``InvalidatingPlatform/HeadlessView``. Use it on
/// > subclasses of ``InvalidatingPlatform/PlatformView`` only, from the main actor; on other classes, use
/// > ``ObjectInvalidating``. Its name differs from Apple's on purpose: inside a `UIView`
/// > subclass, `@Invalidating` always means UIKit's nested type.
@available(iOS, deprecated: 15.0, renamed: "UIView.Invalidating")
@available(tvOS, deprecated: 15.0, renamed: "UIView.Invalidating")
@available(macOS, deprecated: 12.0, renamed: "NSView.Invalidating")
@propertyWrapper
public struct ViewInvalidating<Value: Equatable> {
  @usableFromInline var storage: InvalidatingStorage<Value>
  @usableFromInline let invalidations: ViewInvalidationList

  /// Creates the property with its initial value and the invalidations its changes cause.
  ///
  /// Setting the initial value invalidates nothing.
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - invalidations: What a change invalidates, in the order to request it: `.layout`,
  ///     `.display`, `.constraints`, `.intrinsicContentSize`, `.configuration` (UIKit),
  ///     `.restorableState` (AppKit), or your own ``ViewInvalidatingType``.
  ///   - file: The file that declares the property, for traces; leave the default.
  ///   - line: The line that declares the property, for traces; leave the default.
  @inlinable
  public init<each Invalidation: ViewInvalidatingType>(
    wrappedValue: Value, _ invalidations: repeat each Invalidation,
    file: StaticString = #fileID, line: UInt = #line
  ) {
    storage = InvalidatingStorage(wrappedValue)
    self.invalidations = ViewInvalidationList(
      repeat each invalidations, declaredAt: .made("@ViewInvalidating", file: file, line: line))
  }

  /// Unavailable: the property reaches its view through the enclosing-instance subscript, so
  /// it can only be declared in a class that inherits from ``InvalidatingPlatform/PlatformView``.
  @available(*, unavailable, message: "@ViewInvalidating is only available on properties of views")
  public var wrappedValue: Value {
    get { fatalError("unavailable") }
    set { fatalError("unavailable") }
  }

  /// Unavailable: `$name` is provided through the enclosing-instance subscript.
  @available(*, unavailable, message: "@ViewInvalidating is only available on properties of views")
  public var projectedValue: Property<Value> {
    fatalError("unavailable")
  }

  /// Reads and writes the property of `view`: the accessor Swift calls for `view.name`.
  ///
  /// Writing an equal value does nothing. Writing a different one stores it, requests the
  /// invalidations in order, then delivers the value to `$name`'s subscribers.
  ///
  /// - Parameters:
  ///   - view: The view that declares the property.
  ///   - wrappedKeyPath: The key path of the property.
  ///   - storageKeyPath: The key path of this wrapper in `view`.
  @MainActor @inlinable
  public static subscript<View: PlatformView>(
    _enclosingInstance view: View,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<View, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<View, Self>
  ) -> Value {
    get {
      // A read inside another view's tracked pass, or a computed property, is a dependency.
      if _slowPath(ThreadContext.isTrackingReads) {
        view[keyPath: storageKeyPath].storage.recordTrackedRead(
          of: view, declaredAt: view[keyPath: storageKeyPath].invalidations.declaration)
      } else if _slowPath(ObservationVisibility.isTracking(ThreadContext.existing)) {
        // A read inside Observation's tracking (SwiftUI, UIKit's own) is one of `$name`.
        view[keyPath: storageKeyPath].storage.showReadToObservation(
          declaredAt: view[keyPath: storageKeyPath].invalidations.declaration)
      }
      return view[keyPath: storageKeyPath].storage.value
    }
    // Always inlined into the property's own setter, where the key paths are literals that the
    // optimizer turns into direct field accesses; called, it would walk them at run time.
    @inline(__always) set {
      #if DEBUG
        // The compiler checks callers' isolation, except through a key path handed to code
        // that knows nothing of views (a generic binding). Debug builds catch that here, as
        // UIKit's Main Thread Checker does; release builds skip the check (it costs 30–40 ns).
        if !_MainThread.isCurrent {
          Engine.misuse(
            """
            A @ViewInvalidating property was set off the main actor. Views are main-actor \
            isolated: bind them with `bind(to: view, \\.property)` from the Invalidating \
            module (it hops to the main actor), or deliver with `drive(_:)`.
            """)
        }
      #endif
      guard view[keyPath: storageKeyPath].storage.replace(with: newValue) else { return }
      let context = ThreadContext.current
      let scope = context.openScopeIdentity()
      if scope == 0 || view[keyPath: storageKeyPath].storage.claimInvalidation(inScope: scope) {
        // Traced there, out of line: a set pays nothing more here.
        view[keyPath: storageKeyPath].invalidations.invalidate(view, context)
      }
      view[keyPath: storageKeyPath].storage.publish()
    }
  }

  /// The read-only `Property` that `$name` returns: the property's value and every change.
  ///
  /// The property is created on first use; until then the wrapper publishes nothing.
  ///
  /// - Parameters:
  ///   - view: The view that declares the property.
  ///   - projectedKeyPath: The key path of `$name`.
  ///   - storageKeyPath: The key path of this wrapper in `view`.
  @MainActor
  public static subscript<View: PlatformView>(
    _enclosingInstance view: View,
    projected projectedKeyPath: KeyPath<View, Property<Value>>,
    storage storageKeyPath: ReferenceWritableKeyPath<View, Self>
  ) -> Property<Value> {
    view[keyPath: storageKeyPath].storage.projectedProperty(
      declaredAt: view[keyPath: storageKeyPath].invalidations.declaration)
  }
}
