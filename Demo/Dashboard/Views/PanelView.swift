import Invalidating

/// A view of the dashboard: reads the view model, and reports its invalidations and renders to
/// an ``InvalidationLog``.
///
/// A panel shows view-model state the way UIKit's views do from iOS 26: its
/// `updateProperties()` (or, for state that depends on its size, `layoutSubviews()`) reads the
/// view model's properties and copies them into the panel's own `@ViewInvalidating`
/// properties. The pass tracks what it read, so a change of it asks for the pass again, with no
/// binding to write; the copy invalidates the panel's display only when the value it stores
/// changed. Subclasses draw in ``content()``; the display pass calls it through `render()`.
@MainActor
open class PanelView: HeadlessView {
  /// The name the view goes by in the log: `cpu`, `memory`, ...
  public let name: String
  /// The state the panel shows.
  public let model: SystemViewModel
  /// Where the view reports what it was asked to do.
  public let log: InvalidationLog

  /// Creates a panel that shows `model` and reports to `log` under `name`.
  ///
  /// - Parameters:
  ///   - name: The view's name in the log.
  ///   - model: The view model the panel reads.
  ///   - log: The log to report to.
  public init(name: String, model: SystemViewModel, log: InvalidationLog) {
    self.name = name
    self.model = model
    self.log = log
    super.init(frame: .zero)
  }

  /// Logs the request, then marks the view as needing its properties updated.
  override open func setNeedsUpdateProperties() {
    log.record("properties", name)
    super.setNeedsUpdateProperties()
  }

  /// Logs the request, then marks the view as needing layout.
  override open func setNeedsLayout() {
    log.record("layout", name)
    super.setNeedsLayout()
  }

  /// Logs the request, then marks the view as needing display.
  override open func setNeedsDisplay() {
    log.record("display", name)
    super.setNeedsDisplay()
  }

  /// Logs the request, then asks the superview for layout.
  override open func invalidateIntrinsicContentSize() {
    log.record("intrinsicContentSize", name)
    super.invalidateIntrinsicContentSize()
  }

  /// Logs the render and returns ``content()``.
  override open func render() -> String {
    log.record("render", name)
    return content()
  }

  /// The panel's text, one line per row, for its current ``HeadlessView/bounds``. The default
  /// is empty (a transparent view).
  open func content() -> String { "" }
}
