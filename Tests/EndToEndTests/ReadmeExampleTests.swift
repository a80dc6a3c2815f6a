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
private final class ReadmeCounterController {
  private(set) var title = ""
  private var tokens: [SubscriptionToken] = []
  init(model: ReadmeCounterViewModel) {
    model.count.drive { [weak self] in self?.title = "Count: \($0)" }.store(in: &tokens)
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

  @Test("A main-actor controller drives its title: at once, and before each write returns")
  func driveExample() {
    let model = ReadmeCounterViewModel()
    let controller = ReadmeCounterController(model: model)
    #expect(controller.title == "Count: 0")
    model.increment()
    #expect(controller.title == "Count: 1")
  }
}
