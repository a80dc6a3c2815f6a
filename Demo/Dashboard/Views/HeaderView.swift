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

  /// The headline, cut to leave room for the program's name at the right edge.
  override public func content() -> String {
    let title = "invalidating-dashboard"
    let width = Int(bounds.width)
    return TextLayout.fit(headline, max(0, width - title.count)) + title
  }
}
