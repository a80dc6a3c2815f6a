import Invalidating
import InvalidatingTestSupport
import Testing

// The listing of ../shared/design/API.md, line for line where Swift allows (top-level code
// becomes a test body), with each comment's promise turned into an expectation.

extension Invalidations {
  struct Beacon: ViewInvalidatingType {  // the listing's `Focus`, named apart from other tests'
    func invalidate(view: PlatformView) { (view as? APIBadgeView)?.beacons += 1 }
  }
}

extension ViewInvalidatingType where Self == Invalidations.Beacon {
  static var beacon: Self { .init() }
}

final class APICounterViewModel {
  @ReadWrite(0) var count: Property<Int>
  func increment() { $count.accept(count.value + 1) }  // $count is the relay
}

final class APIBadgeView: HeadlessView {  // UIView / NSView on Apple platforms
  @ViewInvalidating(.layout) var cornerRadius: Double = 12
  @ViewInvalidating(.display, .layout, .intrinsicContentSize) var text: String = ""
  @ViewInvalidating(.layout, .beacon) var selected = false
  var layouts = 0
  var beacons = 0
  override func layoutSubviews() {
    super.layoutSubviews()
    layouts += 1
  }
}

@MainActor
@Suite("The API.md listing compiles and does what its comments say")
struct APIListingTests {
  @Test func relaysPropertiesBatchesViewsAndBindings() async {
    // MARK: Relays (RxRelay's names)
    let count = BehaviorRelay(0)
    #expect(BehaviorRelay(value: 0).value == 0)
    count.accept(1)
    #expect(count.value == 1)
    let printed = Recorder<Int>()
    let token = count.subscribe { value in printed.record(value) }
    #expect(printed.values == [1])  // runs at once with 1
    count.accept(2)
    #expect(printed.values == [1, 2])  // then on every accept
    token.cancel()
    count.accept(1)
    #expect(printed.values == [1, 2])
    let taps = PublishRelay<Int>()
    let tapped = Recorder<Int>()
    let tapToken = taps.subscribe { tapped.record($0) }
    #expect(tapped.values.isEmpty)  // no current value
    taps.accept(5)
    #expect(tapped.values == [5])

    // MARK: Read-only Property
    let readOnly: Property<Int> = count.asProperty()
    #expect(Property(count).value == 1)
    #expect(readOnly.value == 1)
    let doubled: Property<Int> = readOnly.map { $0 * 2 }
    let distinct: Property<Int> = readOnly.removeDuplicates()
    let pair: Property<(Int, Int)> = Property.combineLatest(readOnly, doubled)
    #expect(doubled.value == 2 && distinct.value == 1)
    #expect(pair.value == (1, 2))
    for await value in readOnly.values {
      #expect(value == 1)  // AsyncSequence: the current value first
      break
    }

    // MARK: A view model that writes what others only read
    let model = APICounterViewModel()
    model.increment()
    model.increment()
    #expect(model.count.value == 2)

    // MARK: Batching
    let seen = Recorder<Int>()
    let countToken = count.subscribe(seen.sink)
    batch {
      count.accept(2)
      count.accept(3)
    }
    #expect(seen.values == [1, 3])  // subscribers run once, with 3
    let answer: Int = batch {
      count.accept(4)
      return 42
    }
    #expect(answer == 42)
    #expect(seen.values == [1, 3, 4])

    // MARK: Invalidating views
    let badge = APIBadgeView()
    badge.cornerRadius = 4
    #expect(badge.needsLayout)  // setNeedsLayout()
    badge.layoutIfNeeded()
    #expect(badge.layouts == 1)  // layoutSubviews() runs once
    badge.cornerRadius = 4  // equal value: nothing happens
    #expect(!badge.needsLayout)
    #expect(badge.$cornerRadius.value == 4)

    // MARK: Custom invalidators
    badge.selected = true
    #expect(badge.beacons == 1)

    // MARK: Properties drive views
    let binding = readOnly.map(String.init).bind(to: badge, \.text)
    #expect(badge.text == "4")  // assigns now
    count.accept(7)
    #expect(badge.text == "7")  // and on every change
    binding.cancel()
    countToken.cancel()
    tapToken.cancel()
  }

  /// The "Next" section's lines that this branch makes compile: relays read like properties,
  /// and the atomic read-modify-write.
  @Test func relaysReadLikePropertiesAndModifyAtomically() {
    let price = BehaviorRelay(3)
    let quantity = BehaviorRelay(2)
    let total = Property.combineLatest(price, quantity).map { $0 * $1 }  // BehaviorRelays
    let label = price.map { "\($0) €" }
    #expect(total.value == 6 && label.value == "3 €")

    let counter = BehaviorRelay(0)
    counter.modify { $0 += 1 }
    #expect(counter.value == 1)
  }
}
