// expect: mutation of captured var 'total' in concurrently-executing code
import Invalidating

// A sink may run on any thread, so it cannot write a local variable it captured.
func track(_ points: BehaviorRelay<Int>) -> SubscriptionToken {
  var total = 0
  return points.subscribe { total += $0 }
}
