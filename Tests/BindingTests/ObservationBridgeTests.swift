import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Observation
import Testing

@Suite struct ObservationBridgeTests {
  @Observable @MainActor final class Settings {
    var fontSize = 14
    var title = "a"
  }

  @MainActor @Test func followsTheObservedKeyPath() async {
    let settings = Settings()
    let fontSize = Property(observing: settings, \.fontSize)
    #expect(fontSize.value == 14)
    let seen = WaitingRecorder<Int>()
    let token = fontSize.subscribe(seen.sink)
    settings.fontSize = 16
    await seen.waitForCount(2)
    settings.title = "b"
    settings.fontSize = 17
    settings.fontSize = 18
    await seen.waitForCount(3)
    #expect(seen.values == [14, 16, 18])
    #expect(fontSize.value == 18)
    _ = token
  }

  @MainActor @Test func releasingThePropertyCompletesItsSubscribersAndFreesNothingElse() async {
    let settings = Settings()
    let tracker = LifetimeTracker()
    var values: PropertyValues<Int>.AsyncIterator?
    do {
      let property = Property(observing: settings, \.fontSize)
      tracker.track(property, "property")
      values = property.map { $0 * 2 }.values.makeAsyncIterator()
    }
    #expect(await values?.next() == 28)
    settings.fontSize = 15
    #expect(await values?.next() == 30)
    values = nil
    #expect(tracker.alive == [])
  }
}
