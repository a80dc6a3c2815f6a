// Compiled last by scripts/check-apple-glue against the AppKit stub: fails unless the sources
// were type-checked with their AppKit branch active.
import AppKit
import InvalidatingCore
import InvalidatingPlatform

@MainActor
func platformViewIsNSView(_ view: PlatformView) -> NSView { view }

@MainActor
func nsViewIsInvalidatable(_ view: NSView) -> any Invalidatable { view }

/// An AppKit view that tracks what its layout pass reads (automatic invalidation).
@MainActor
final class TrackingBadgeView: NSView {
  let title: Property<String>
  private(set) var shown = ""
  private let tracker = InvalidationTracker()

  init(title: Property<String>) {
    self.title = title
    super.init(frame: .zero)
  }

  required init?(coder: NSCoder) { nil }

  override func layout() {
    super.layout()
    tracker.track(.layout, of: self) { shown = title.value }
  }
}
