import Invalidating

/// The top line: the view model's headline on the left, the program's name on the right.
@MainActor
public final class HeaderView: PanelView {
  /// The text on the left.
  @ViewInvalidating(.display) public var headline = ""

  /// Creates a header that shows `model`'s headline.
  ///
  /// - Parameters:
  ///   - model: The view model the header reads.
  ///   - log: Where the view reports.
  public init(model: SystemViewModel, log: InvalidationLog) {
    super.init(name: "header", model: model, log: log)
  }

  /// Copies the view model's headline.
  override public func updateProperties() {
    headline = model.headline.value
  }

  /// The headline and the program's name at the right edge, a space at least between them;
  /// when both do not fit, the headline alone, cut to the width.
  override public func content() -> String {
    let title = "invalidating-dashboard"
    let width = Int(bounds.width)
    guard headline.count + 1 + title.count <= width else { return TextLayout.fit(headline, width) }
    return TextLayout.fit(headline, width - title.count) + title
  }
}
