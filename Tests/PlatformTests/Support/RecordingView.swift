import InvalidatingPlatform

/// An ordered record of the passes and requests a tree of ``RecordingView``s went through,
/// as `"<event> <view name>"` strings.
@MainActor
final class PassLog {
  private(set) var entries: [String] = []

  func record(_ event: String, _ name: String) {
    entries.append("\(event) \(name)")
  }

  /// The entries for one event, in order.
  func entries(_ event: String) -> [String] {
    entries.filter { $0.hasPrefix(event + " ") }
  }

  func removeAll() {
    entries.removeAll()
  }
}

/// A view that records its requests and passes in a shared log, and renders `content`.
@MainActor
final class RecordingView: HeadlessView {
  let name: String
  let log: PassLog
  var content: String
  /// Runs at the end of `layoutSubviews()`, to invalidate from inside a pass.
  var onLayout: (() -> Void)?
  /// Runs at the end of `render()`, to invalidate from inside a pass.
  var onRender: (() -> Void)?

  init(_ name: String, log: PassLog, content: String = "", frame: ViewRect = .zero) {
    self.name = name
    self.log = log
    self.content = content
    super.init(frame: frame)
  }

  override func setNeedsLayout() {
    log.record("setNeedsLayout", name)
    super.setNeedsLayout()
  }

  override func updateProperties() {
    log.record("properties", name)
    super.updateProperties()
  }

  override func updateConstraints() {
    log.record("constraints", name)
    super.updateConstraints()
  }

  override func layoutSubviews() {
    log.record("layout", name)
    super.layoutSubviews()
    onLayout?()
  }

  override func render() -> String {
    log.record("display", name)
    onRender?()
    return content
  }
}

extension HeadlessView {
  /// Whether any pass is pending on this view itself.
  var hasPendingPass: Bool {
    needsUpdateProperties || needsLayout || needsDisplay || needsUpdateConstraints
  }
}
