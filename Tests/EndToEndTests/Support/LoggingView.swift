import Invalidating

/// An ordered record of what a set of ``LoggingView``s were asked to do and did, as
/// `"<event> <view>"` strings: `"display title"`, `"render title"`.
@MainActor
final class ViewLog {
  private(set) var entries: [String] = []

  func record(_ event: String, _ view: String) {
    entries.append("\(event) \(view)")
  }

  /// The invalidation requests: every entry but renders.
  var invalidations: [String] { entries.filter { !$0.hasPrefix("render ") } }

  /// The renders, as view names.
  var renders: [String] {
    entries.filter { $0.hasPrefix("render ") }.map { String($0.dropFirst("render ".count)) }
  }

  func removeAll() {
    entries.removeAll()
  }
}

/// A view that logs every invalidation request and render to a shared ``ViewLog``.
@MainActor
class LoggingView: HeadlessView {
  let name: String
  let log: ViewLog

  init(_ name: String, log: ViewLog, frame: ViewRect = .zero) {
    self.name = name
    self.log = log
    super.init(frame: frame)
  }

  override func setNeedsLayout() {
    log.record("layout", name)
    super.setNeedsLayout()
  }

  override func setNeedsDisplay() {
    // Bindings fed from other threads must still invalidate on the main actor.
    MainActor.preconditionIsolated("views are invalidated on the main actor")
    log.record("display", name)
    super.setNeedsDisplay()
  }

  override func setNeedsUpdateConstraints() {
    log.record("constraints", name)
    super.setNeedsUpdateConstraints()
  }

  override func invalidateIntrinsicContentSize() {
    log.record("intrinsicContentSize", name)
    super.invalidateIntrinsicContentSize()
  }

  override func render() -> String {
    log.record("render", name)
    return content()
  }

  /// What the view shows; the default is empty.
  func content() -> String { "" }
}

/// A label: its text invalidates display and intrinsic size, its color display only.
@MainActor
final class LabelView: LoggingView {
  @ViewInvalidating(.display, .intrinsicContentSize) var text = ""
  @ViewInvalidating(.display) var color = "plain"

  override func content() -> String { "[\(color)] \(text)" }
}
