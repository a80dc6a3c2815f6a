import Invalidating
import InvalidatingTestSupport
import Testing

/// A view model with `@ReadWrite` state and derived properties, two views bound to it, and a
/// scripted sequence of writes: the exact invalidations, renders and final text.
@MainActor
@Suite struct MVVMTests {
  @Test func scriptedWritesInvalidateAndRenderExactlyWhatChanged() {
    let model = ProfileViewModel()
    let screen = ProfileScreen(model)
    let log = screen.log
    #expect(screen.text == rows("Ada Lovelace", "-"))

    model.$firstName.accept("Grace")
    #expect(
      log.invalidations == ["display title", "intrinsicContentSize title", "layout root"])
    #expect(screen.tick() == ["title"])
    #expect(screen.text == rows("Grace Lovelace", "-"))

    model.receive(3)
    #expect(log.invalidations == ["display badge", "layout badge", "display title"])
    model.receive(0)
    #expect(log.invalidations == ["display badge", "layout badge", "display title"])
    #expect(screen.tick() == ["title", "badge"])
    #expect(screen.text == rows("*Grace Lovelace*", "(3)"))

    model.receive(2)
    #expect(log.invalidations == ["display badge", "layout badge"])
    #expect(screen.tick() == ["badge"])

    // Three writes outside a batch are three deliveries: the title is invalidated twice, yet
    // the next tick renders it once.
    model.markAllRead()
    model.rename(first: "Ada", last: "Byron")
    #expect(
      log.invalidations == [
        "display badge", "layout badge", "display title",
        "display title", "intrinsicContentSize title", "layout root",
        "display title", "intrinsicContentSize title", "layout root",
      ])
    #expect(screen.tick() == ["title", "badge"])
    #expect(screen.text == rows("Ada Byron", "-"))
    #expect(screen.tick() == [])
  }

  @Test func aBatchSpanningViewModelsAndViewsRunsEachSinkAndEachInvalidationOnce() {
    let profile = ProfileViewModel()
    let other = ProfileViewModel()
    let screen = ProfileScreen(profile)
    let otherScreen = ProfileScreen(other)
    let names = Recorder<String>()
    let badges = Recorder<String>()
    let tokens = [profile.fullName.subscribe(names.sink), other.badgeText.subscribe(badges.sink)]
    names.removeAll()
    badges.removeAll()

    batch {
      profile.rename(first: "Grace", last: "Hopper")
      profile.rename(first: "Mary", last: "Jackson")
      for _ in 1...10 { profile.receive(1) }
      other.receive(4)
      other.receive(5)
      screen.title.text = "typed over"
      otherScreen.badge.text = "set directly"
      profile.rename(first: "Katherine", last: "Johnson")
    }

    #expect(names.values == ["Katherine Johnson"])
    #expect(badges.values == ["(9)"])
    #expect(
      screen.log.invalidations == [
        "display title", "intrinsicContentSize title", "layout root", "display badge",
        "layout badge",
      ])
    #expect(otherScreen.log.invalidations == ["display badge", "layout badge", "display title"])
    #expect(screen.tick() == ["title", "badge"])
    #expect(otherScreen.tick() == ["title", "badge"])
    #expect(screen.text == rows("*Katherine Johnson*", "(10)"))
    #expect(otherScreen.text == rows("*Ada Lovelace*", "(9)"))
    _ = tokens
  }

  /// The screen's text: each line padded to the screen's 20 columns.
  private func rows(_ lines: String...) -> String {
    lines.map { $0 + String(repeating: " ", count: 20 - $0.count) }.joined(separator: "\n")
  }
}
