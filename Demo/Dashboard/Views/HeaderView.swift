import Invalidating

/// The top line: the view model's headline, read when the view draws.
///
/// The view keeps no copy of the headline: the dashboard invalidates its display whenever the
/// headline changes (`invalidate(.display, whenever:)`), and ``content()`` reads the current
/// value.
@MainActor
public final class HeaderView: PanelView {
  /// The text the view shows.
  public let headline: Property<String>

  /// Creates a header that shows `headline`.
  ///
  /// - Parameters:
  ///   - headline: The text to show.
  ///   - log: Where the view reports.
  public init(headline: Property<String>, log: InvalidationLog) {
    self.headline = headline
    super.init(name: "header", log: log)
  }

  /// The headline on the left, the program's name on the right.
  override public func content() -> String {
    let title = "invalidating-dashboard"
    let width = Int(bounds.width)
    return TextLayout.fit(headline.value, max(0, width - title.count)) + title
  }
}
