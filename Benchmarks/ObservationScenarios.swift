import Invalidating
import Observation

// What showing reads to Apple's Observation costs (issue 28), beside what an `@Observable`
// property pays for the same: profiles for `scripts/count-instructions observ`.

/// An `@Observable` model of one property: Observation's own cost, the yardstick.
@Observable
final class ObservedCounter: @unchecked Sendable {
  // Safe: the benchmark's one thread.
  var count = 0
}

/// A relay that an Observation tracking has read once (its registrar and subscription made;
/// the tracking fired and is gone), with one subscriber, as `set` has.
private func observedRelay(_ tally: Tally) -> (BehaviorRelay<Int>, SubscriptionToken) {
  ObservationVisibility.isEnabled = true
  let relay = BehaviorRelay(0)
  let token = relay.subscribe { tally.total &+= $0 }
  withObservationTracking {
    tally.total &+= relay.value
  } onChange: {
  }
  relay.accept(-1)
  return (relay, token)
}

@MainActor
let observationProfiles: [String: () -> Body] = [
  // A read of a relay no tracking has read, with reads shown to Observation (off by default
  // on Linux, where `read` runs without).
  "read-visible": {
    ObservationVisibility.isEnabled = true
    let tally = Tally()
    let relay = BehaviorRelay(42)
    return { iterations in
      for _ in 0..<iterations { tally.total &+= relay.value }
    }
  },
  // A read outside any tracking of a relay Observation has read: the same probe as `read`.
  "observed-read": {
    let tally = Tally()
    let (relay, token) = observedRelay(tally)
    return { iterations in
      for _ in 0..<iterations { tally.total &+= relay.value }
      blackHole(token)
    }
  },
  // An `@Observable` property's read outside any tracking: Observation's `access`.
  "observable-read": {
    let tally = Tally()
    let model = ObservedCounter()
    return { iterations in
      for _ in 0..<iterations { tally.total &+= model.count }
    }
  },
  // A set delivered to one subscriber and to the relay's registrar, which has no observer.
  "observed-set": {
    let tally = Tally()
    let (relay, token) = observedRelay(tally)
    return { iterations in
      for i in 0..<iterations { relay.accept(i) }
      blackHole(token)
    }
  },
  // An `@Observable` property's set with no observer: a `willSet` and `didSet` pair.
  "observable-set": {
    let model = ObservedCounter()
    return { iterations in
      for i in 0..<iterations { model.count = i }
    }
  },
  // One tracked read and the change that fires it, through a relay...
  "observed-cycle": {
    let tally = Tally()
    let (relay, token) = observedRelay(tally)
    return { iterations in
      for i in 0..<iterations {
        withObservationTracking {
          tally.total &+= relay.value
        } onChange: {
        }
        relay.accept(i)
      }
      blackHole(token)
    }
  },
  // ... and through an `@Observable` property.
  "observable-cycle": {
    let tally = Tally()
    let model = ObservedCounter()
    return { iterations in
      for i in 0..<iterations {
        withObservationTracking {
          tally.total &+= model.count
        } onChange: {
        }
        model.count = i
      }
    }
  },
  // A relay made, read once by a tracking and released: the registrar's and subscription's
  // making (the tracking's own cost included, as in the next)...
  "create-observed-relay": {
    ObservationVisibility.isEnabled = true
    let tally = Tally()
    return { iterations in
      for i in 0..<iterations {
        let relay = BehaviorRelay(i)
        withObservationTracking {
          tally.total &+= relay.value
        } onChange: {
        }
      }
    }
  },
  // ... and an `@Observable` model made and read once by a tracking.
  "create-observed-observable": {
    let tally = Tally()
    return { iterations in
      for _ in 0..<iterations {
        let model = ObservedCounter()
        withObservationTracking {
          tally.total &+= model.count
        } onChange: {
        }
      }
    }
  },
]
