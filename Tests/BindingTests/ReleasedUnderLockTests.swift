import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

/// A value whose deinit reads the relay that held it, as a view model's state might.
private final class ReadsRelayWhenFreed: @unchecked Sendable {
  // Safe: set once before the object is shared.
  weak var relay: BehaviorRelay<ReadsRelayWhenFreed?>?
  deinit { _ = relay?.value }
}

@Suite struct ReleasedUnderLockTests {
  @Test("Replacing a relay's value whose deinit reads the relay does not deadlock")
  func replacedValueReadsTheRelay() {
    let relay = BehaviorRelay<ReadsRelayWhenFreed?>(nil)
    let token = relay.subscribe { _ in }
    relay.accept(Self.reader(of: relay))
    relay.accept(nil)  // the old value is freed, reads the relay in its deinit
    relay.accept(nil)
    #expect(relay.value == nil)
    token.cancel()
  }

  @Test("…and inside a batch, and with a derived property attached")
  func replacedValueReadsTheRelayInBatchAndThroughMap() {
    let relay = BehaviorRelay<ReadsRelayWhenFreed?>(nil)
    let isSet = relay.asProperty().map { $0 != nil }
    let seen = Recorder<Bool>()
    let token = isSet.subscribe(seen.sink)
    relay.accept(Self.reader(of: relay))
    batch {
      relay.accept(Self.reader(of: relay))
      relay.accept(nil)
    }
    relay.accept(Self.reader(of: relay))
    relay.accept(nil)
    #expect(seen.values == [false, true, false, true, false])
    token.cancel()
  }

  private static func reader(
    of relay: BehaviorRelay<ReadsRelayWhenFreed?>
  ) -> ReadsRelayWhenFreed {
    let reader = ReadsRelayWhenFreed()
    reader.relay = relay
    return reader
  }
}
