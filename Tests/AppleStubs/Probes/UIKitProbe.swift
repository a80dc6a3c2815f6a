// Compiled last by scripts/check-apple-glue against the UIKit stub: fails unless the sources
// were type-checked with their UIKit branch active.
import InvalidatingCore
import InvalidatingPlatform
import UIKit

@MainActor
func platformViewIsUIView(_ view: PlatformView) -> UIView { view }

@MainActor
func uiViewIsInvalidatable(_ view: UIView) -> any Invalidatable { view }

/// A UIKit view that tracks what its layout pass reads (automatic invalidation before iOS 26).
@MainActor
final class TrackingBadgeView: UIView {
  let title: Property<String>
  private(set) var shown = ""
  private let tracker = InvalidationTracker()

  init(title: Property<String>) {
    self.title = title
    super.init(frame: .zero)
  }

  required init?(coder: NSCoder) { nil }

  override func layoutSubviews() {
    super.layoutSubviews()
    tracker.track(.layout, of: self) { shown = title.value }
  }

  @available(iOS 26.0, tvOS 26.0, *)
  override func updateProperties() {
    super.updateProperties()
    tracker.track(.updateProperties, of: self) { shown = title.value }
  }
}
