import Invalidating

/// A view of the dashboard: reports its invalidations and renders to an ``InvalidationLog``.
///
/// Subclasses draw in ``content()``; the display pass calls it through `render()`.
@MainActor
open class PanelView: HeadlessView {
  /// The name the view goes by in the log: `cpu`, `memory`, ...
  public let name: String
  /// Where the view reports what it was asked to do.
  public let log: InvalidationLog

  /// Creates a panel that reports to `log` under `name`.
  ///
  /// - Parameters:
  ///   - name: The view's name in the log.
  ///   - log: The log to report to.
  public init(name: String, log: InvalidationLog) {
    self.name = name
    self.log = log
    super.init(frame: .zero)
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

  /// The panel's text, one line per row. The default is empty (a transparent view).
  open func content() -> String { "" }
}
