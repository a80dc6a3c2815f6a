// Compiled last by scripts/check-apple-glue against the AppKit stub: fails unless the sources
// were type-checked with their AppKit branch active.
import AppKit
import InvalidatingCore
import InvalidatingPlatform

@MainActor
func platformViewIsNSView(_ view: PlatformView) -> NSView { view }

@MainActor
func nsViewIsInvalidatable(_ view: NSView) -> any Invalidatable { view }
