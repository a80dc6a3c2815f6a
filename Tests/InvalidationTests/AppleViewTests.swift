// The same wrapper on UIKit's and AppKit's own views. Compiled only where they exist; on
// Linux, the sources these tests exercise are type-checked by scripts/check-apple-glue.
#if canImport(UIKit)
  import InvalidatingCore
  import InvalidatingInvalidation
  import InvalidatingPlatform
  import Testing
  import UIKit

  /// A `UIView` that records the invalidation requests UIKit receives.
  private final class RecordingUIView: UIView {
    @ViewInvalidating(.layout, .display, .constraints, .intrinsicContentSize, .configuration)
    var value = 0
    var calls: [String] = []

    override func setNeedsLayout() {
      calls.append("layout")
      super.setNeedsLayout()
    }

    override func setNeedsDisplay() {
      calls.append("display")
      super.setNeedsDisplay()
    }

    override func setNeedsUpdateConstraints() {
      calls.append("constraints")
      super.setNeedsUpdateConstraints()
    }

    override func invalidateIntrinsicContentSize() {
      calls.append("intrinsicContentSize")
      super.invalidateIntrinsicContentSize()
    }
  }

  /// A cell, whose configuration `.configuration` invalidates from iOS and tvOS 14.
  private final class RecordingCell: UICollectionViewCell {
    @ViewInvalidating(.configuration) var isChosen = false
    var configurationUpdates = 0

    @available(iOS 14.0, tvOS 14.0, *)
    override func setNeedsUpdateConfiguration() {
      configurationUpdates += 1
      super.setNeedsUpdateConfiguration()
    }
  }

  @MainActor
  @Suite("@ViewInvalidating on UIKit views")
  struct UIKitViewTests {
    @Test("the built-ins call UIKit's methods in order; .configuration is a no-op on UIView")
    func builtIns() {
      let view = RecordingUIView(frame: .zero)
      view.calls = []
      view.value = 1
      view.value = 1
      #expect(view.calls == ["layout", "display", "constraints", "intrinsicContentSize"])
    }

    @Test("configuration updates reach cells, once per batch")
    func configuration() {
      guard #available(iOS 14.0, tvOS 14.0, *) else { return }
      let cell = RecordingCell(frame: .zero)
      cell.configurationUpdates = 0
      batch {
        cell.isChosen = true
        cell.isChosen = false
        cell.isChosen = true
      }
      #expect(cell.configurationUpdates == 1)
    }
  }
#elseif canImport(AppKit)
  import AppKit
  import InvalidatingCore
  import InvalidatingInvalidation
  import InvalidatingPlatform
  import Testing

  /// An `NSView` whose flags the built-ins set.
  private final class FlagView: NSView {
    @ViewInvalidating(.layout, .display, .constraints, .restorableState) var value = 0
  }

  @MainActor
  @Suite("@ViewInvalidating on AppKit views")
  struct AppKitViewTests {
    @Test("the built-ins set AppKit's needs... flags")
    func builtIns() {
      let view = FlagView(frame: .zero)
      view.needsLayout = false
      view.needsDisplay = false
      view.needsUpdateConstraints = false
      view.value = 1
      #expect(view.needsLayout && view.needsDisplay && view.needsUpdateConstraints)
    }
  }
#endif
