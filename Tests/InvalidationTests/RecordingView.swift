import InvalidatingInvalidation
import InvalidatingPlatform

/// A headless view that records every invalidation request it receives, with what its
/// properties held at that moment, before passing the request on to `HeadlessView`.
@MainActor
class RecordingView: HeadlessView {
  /// The requests received, oldest first: `"layout"`, or `"layout(state)"` when ``state`` is
  /// not empty.
  private(set) var calls: [String] = []

  /// What the view's properties hold, included in each recorded call. Subclasses override it
  /// to show that a property was stored before its invalidations ran.
  var state: String { "" }

  /// Records `call` with the current ``state``.
  func record(_ call: String) {
    calls.append(state.isEmpty ? call : "\(call)(\(state))")
  }

  /// Forgets the calls recorded so far.
  func clearCalls() {
    calls.removeAll()
  }

  override func setNeedsLayout() {
    record("layout")
    super.setNeedsLayout()
  }

  override func setNeedsDisplay() {
    record("display")
    super.setNeedsDisplay()
  }

  override func setNeedsUpdateConstraints() {
    record("constraints")
    super.setNeedsUpdateConstraints()
  }

  override func invalidateIntrinsicContentSize() {
    record("intrinsicContentSize")
    super.invalidateIntrinsicContentSize()
  }
}
