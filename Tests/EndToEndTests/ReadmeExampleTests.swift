import Invalidating
import Testing

// The README's opening example, kept compiling and true.

private final class ReadmeCounterViewModel: Sendable {
  let count: Property<Int>
  private let countRelay = BehaviorRelay(0)
  init() { count = countRelay.asProperty() }
  func increment() { countRelay.modify { $0 += 1 } }
}

private final class ReadmeBadgeView: HeadlessView {
  @ViewInvalidating(.display, .layout) var text = ""
  var layoutRequests = 0
  var displayRequests = 0
  override func setNeedsLayout() {
    super.setNeedsLayout()
    layoutRequests += 1
  }
  override func setNeedsDisplay() {
    super.setNeedsDisplay()
    displayRequests += 1
  }
}

@MainActor
@Suite("README")
struct ReadmeExampleTests {
  @Test("One batch of two increments: one delivery, one layout, one display")
  func openingExample() {
    let model = ReadmeCounterViewModel()
    let badge = ReadmeBadgeView()
    let binding = model.count.map { "Count: \($0)" }.bind(to: badge, \.text)
    #expect(badge.text == "Count: 0")
    badge.layoutIfNeeded()
    badge.displayIfNeeded()
    let (layouts, displays) = (badge.layoutRequests, badge.displayRequests)
    batch {
      model.increment()
      model.increment()
    }
    #expect(badge.text == "Count: 2")
    #expect(badge.layoutRequests - layouts == 1)
    #expect(badge.displayRequests - displays == 1)
    binding.cancel()
  }
}
