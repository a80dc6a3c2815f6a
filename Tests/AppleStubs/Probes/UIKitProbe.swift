// Compiled last by scripts/check-apple-glue against the UIKit stub: fails unless the sources
// were type-checked with their UIKit branch active.
import InvalidatingCore
import InvalidatingPlatform
import UIKit

@MainActor
func platformViewIsUIView(_ view: PlatformView) -> UIView { view }

@MainActor
func uiViewIsInvalidatable(_ view: UIView) -> any Invalidatable { view }
