#if canImport(AppKit) && !canImport(UIKit)
  import AppKit
  import InvalidatingCore

  // AppKit's views are the platform views where UIKit is absent (macOS, not Mac Catalyst): the
  // engine invalidates them directly, and the invalidators set AppKit's `needs...` flags.
  extension NSView: Invalidatable {}
#endif
