#if canImport(UIKit)
  import UIKit

  /// The view type of the platform the package is built for: `UIView` where UIKit exists.
  ///
  /// Invalidators and bindings are written against `PlatformView`, so the same code drives a
  /// `UIView` on iOS, an `NSView` on macOS and a ``HeadlessView`` on Linux.
  ///
  /// > Important: `UIView` is isolated to the main actor; so is every use of `PlatformView`.
  public typealias PlatformView = UIView
#elseif canImport(AppKit)
  import AppKit

  /// The view type of the platform the package is built for: `NSView` where AppKit exists and
  /// UIKit does not.
  ///
  /// Invalidators and bindings are written against `PlatformView`, so the same code drives a
  /// `UIView` on iOS, an `NSView` on macOS and a ``HeadlessView`` on Linux.
  ///
  /// > Important: `NSView` is isolated to the main actor; so is every use of `PlatformView`.
  public typealias PlatformView = NSView
#else
  /// The view type of the platform the package is built for: ``HeadlessView`` where neither
  /// UIKit nor AppKit exists (Linux, Windows, WebAssembly).
  ///
  /// Invalidators and bindings are written against `PlatformView`, so the same code drives a
  /// `UIView` on iOS, an `NSView` on macOS and a ``HeadlessView`` on Linux.
  ///
  /// > Important: ``HeadlessView`` is isolated to the main actor, as `UIView` is; so is every
  /// > use of `PlatformView`.
  public typealias PlatformView = HeadlessView
#endif
