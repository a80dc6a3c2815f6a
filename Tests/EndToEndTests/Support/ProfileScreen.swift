import Invalidating

/// A view model: the state is written here and only read elsewhere.
final class ProfileViewModel {
  @ReadWrite("Ada") var firstName: Property<String>
  @ReadWrite("Lovelace") var lastName: Property<String>
  @ReadWrite(0) var unread: Property<Int>

  /// "First Last", recomputed once per change of either name.
  let fullName: Property<String>
  /// The unread count as the badge shows it: empty for none.
  let badgeText: Property<String>
  /// Whether there is anything unread; notifies only when that flips.
  let hasUnread: Property<Bool>

  init() {
    fullName = Property.combineLatest(_firstName.wrappedValue, _lastName.wrappedValue)
      .map { "\($0) \($1)" }
    badgeText = _unread.wrappedValue.map { $0 == 0 ? "" : "(\($0))" }
    hasUnread = _unread.wrappedValue.map { $0 > 0 }.removeDuplicates()
  }

  func rename(first: String, last: String) {
    $firstName.accept(first)
    $lastName.accept(last)
  }

  func receive(_ count: Int) {
    $unread.accept(unread.value + count)
  }

  func markAllRead() {
    $unread.accept(0)
  }
}

/// The name, bold (`*`) when something is unread.
@MainActor
final class TitleView: LoggingView {
  @ViewInvalidating(.display, .intrinsicContentSize) var text = ""
  @ViewInvalidating(.display) var isBold = false

  override func content() -> String { isBold ? "*\(text)*" : text }
}

/// The unread count.
@MainActor
final class BadgeView: LoggingView {
  @ViewInvalidating(.display, .layout) var text = ""

  override func content() -> String { text.isEmpty ? "-" : text }
}

/// A screen: a root view with a title and a badge, bound to a profile view model, hosted by
/// its own render loop.
@MainActor
final class ProfileScreen {
  let log = ViewLog()
  let root: LoggingView
  let title: TitleView
  let badge: BadgeView
  let loop = RenderLoop()
  private var bindings: [SubscriptionToken] = []

  init(_ model: ProfileViewModel) {
    root = LoggingView("root", log: log, frame: ViewRect(x: 0, y: 0, width: 20, height: 2))
    title = TitleView("title", log: log, frame: ViewRect(x: 0, y: 0, width: 20, height: 1))
    badge = BadgeView("badge", log: log, frame: ViewRect(x: 0, y: 1, width: 20, height: 1))
    root.addSubview(title)
    root.addSubview(badge)
    loop.addRootView(root)
    bindings = [
      model.fullName.bind(to: title, \.text),
      model.hasUnread.bind(to: title, \.isBold),
      model.badgeText.bind(to: badge, \.text),
    ]
    loop.flush()
    log.removeAll()
  }

  /// Runs one frame and returns the views it rendered, in order.
  func tick() -> [String] {
    log.removeAll()
    loop.tick()
    return log.renders
  }

  var text: String { root.compositedText() }
}
