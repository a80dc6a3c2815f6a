import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct BindTests {
  @Test func assignsNowAndOnEveryChange() {
    let count = BehaviorRelay(1)
    let label = SendableLabel()
    let token = count.asProperty().map(String.init).bind(to: label, \.text)
    #expect(label.text == "1")
    count.accept(2)
    #expect(label.text == "2")
    token.cancel()
    count.accept(3)
    #expect(label.text == "2")
  }

  @Test func holdsTheObjectWeaklyAndEndsWhenItIsReleased() {
    let count = BehaviorRelay(1)
    let tracker = LifetimeTracker()
    var label: SendableLabel? = SendableLabel()
    tracker.track(label!, "label")
    let mapped = count.asProperty().map(String.init)
    let token = mapped.bind(to: label!, \.text)
    label = nil
    #expect(tracker.alive == [])
    count.accept(2)
    // The binding noticed the object is gone and ended: a new subscriber is the only one left.
    let seen = Recorder<String>()
    let other = mapped.subscribe(seen.sink)
    count.accept(3)
    #expect(seen.values == ["2", "3"])
    _ = (token, other)
  }

  @Test func bindToABehaviorRelay() {
    let source = BehaviorRelay(1)
    let target = BehaviorRelay(0)
    let seen = Recorder<Int>()
    let watch = target.subscribe(seen.sink)
    let token = source.asProperty().map { $0 * 10 }.bind(to: target)
    source.accept(2)
    #expect(target.value == 20)
    #expect(seen.values == [0, 10, 20])
    _ = (watch, token)
  }

  @Test func bindToAPublishRelay() {
    let source = BehaviorRelay("a")
    let events = PublishRelay<String>()
    let seen = Recorder<String>()
    let watch = events.subscribe(seen.sink)
    let token = source.asProperty().bind(to: events)
    source.accept("b")
    #expect(seen.values == ["a", "b"])
    _ = (watch, token)
  }

  @Test func aBindingThatFeedsItsOwnSourceSettles() {
    let relay = BehaviorRelay(0)
    let token = relay.asProperty().map { min($0 + 1, 5) }.removeDuplicates().bind(to: relay)
    #expect(relay.value == 5)
    _ = token
  }
}
