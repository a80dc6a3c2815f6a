import Invalidating
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

/// One view showing two unrelated view models: its layout pass reads a property of each.
@MainActor
private final class TwoModelsView: HeadlessView {
  let left: Property<Int>
  let right: Property<Int>
  let readsRight: Property<Bool>
  private(set) var shown = 0

  init(left: Property<Int>, right: Property<Int>, readsRight: Property<Bool>) {
    self.left = left
    self.right = right
    self.readsRight = readsRight
    super.init(frame: .zero)
  }

  override func layoutSubviews() {
    shown = readsRight.value ? left.value + right.value : left.value
  }
}

/// Rule 5 (issue 26, point 4) for view passes: a pass that read two unrelated view models joins
/// their domains while the view follows both, and no longer.
///
/// They used to stay joined after the view was gone: the pass's watch (one derived node over
/// what it read) merged their domains for good.
@MainActor
@Suite("Automatic invalidation: a view pass joins what it read only while it follows it")
struct ViewPassDomainTests {
  static func joined<A, B>(_ first: BehaviorRelay<A>, _ second: BehaviorRelay<B>) -> Bool {
    first.asProperty().node.rootIdentity == second.asProperty().node.rootIdentity
  }

  @Test("A view whose pass read two view models, released, leaves them independent")
  func aReleasedViewSplitsWhatItsPassJoined() {
    let left = BehaviorRelay(1)
    let right = BehaviorRelay(2)
    let readsRight = BehaviorRelay(true)
    var view: TwoModelsView? = TwoModelsView(
      left: left.asProperty(), right: right.asProperty(), readsRight: readsRight.asProperty())
    view?.layoutIfNeeded()
    #expect(view?.shown == 3)
    #expect(Self.joined(left, right))
    right.accept(5)
    #expect(view?.needsLayout == true)
    view?.layoutIfNeeded()
    #expect(view?.shown == 6)
    view = nil
    #expect(!Self.joined(left, right))
    #expect(!Self.joined(left, readsRight))
    Engine.checkJoinCounts(around: left.asProperty().node)
    Engine.checkJoinCounts(around: right.asProperty().node)
  }

  @Test("A pass that stops reading a view model lets its domain go")
  func aPassThatStopsReadingSplits() {
    let left = BehaviorRelay(1)
    let right = BehaviorRelay(2)
    let readsRight = BehaviorRelay(true)
    let view = TwoModelsView(
      left: left.asProperty(), right: right.asProperty(), readsRight: readsRight.asProperty())
    view.layoutIfNeeded()
    #expect(Self.joined(left, right))
    readsRight.accept(false)
    view.layoutIfNeeded()
    #expect(view.shown == 1)
    #expect(!Self.joined(left, right))
    #expect(Self.joined(left, readsRight))
    right.accept(7)
    #expect(!view.needsLayout)  // no longer followed
    Engine.checkJoinCounts(around: left.asProperty().node)
  }
}
