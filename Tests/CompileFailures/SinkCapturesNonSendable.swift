// expect: capture of 'tally' with non-Sendable type 'Tally' in a '@Sendable' closure
import Invalidating

// A sink runs on the thread of the write that reaches it, so it may capture only what is safe
// to share between threads.
final class Tally {
  var total = 0
}

func track(_ points: BehaviorRelay<Int>) -> SubscriptionToken {
  let tally = Tally()
  return points.subscribe { tally.total += $0 }
}
