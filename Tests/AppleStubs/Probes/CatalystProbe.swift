// Compiled last by scripts/check-apple-glue against the UIKit and AppKit stubs together, as on
// Mac Catalyst: fails unless the sources were type-checked with their UIKit branch active.
import AppKit
import InvalidatingCore
import InvalidatingInvalidation
import InvalidatingPlatform
import UIKit

@MainActor
func platformViewIsUIView(_ view: PlatformView) -> UIView { view }

@MainActor
func uiViewIsInvalidatable(_ view: UIView) -> any Invalidatable { view }

@MainActor
final class CatalystProbeCell: UICollectionViewCell {
  @ViewInvalidating(.layout, .configuration) var isChosen = false
}
