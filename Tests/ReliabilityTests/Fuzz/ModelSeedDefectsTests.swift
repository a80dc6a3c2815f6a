import Invalidating
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

/// Defects the model-based random programs found on seeds outside CI's range (issue 26),
/// each as a plain program on the public API. Each failed before its fix; the comment of each
/// test says how.
@Suite("Defects found by the model-based programs")
struct ModelSeedDefectsTests {
  @Test("A filter made in a batch over a computed property starts from the delivered state")
  func filterMadeInBatchStartsFromTheDeliveredState() {
    // `outer`, unobserved, was linked to `selector` only (its first run took the `-1` branch);
    // the flip makes it read `inner`, of another domain, unobserved too. The filter made inside
    // the batch attaches `outer`, computed from what its inputs delivered: `inner` as `b`
    // delivered it, 1, not with the batch's write, 6, which the batch's end delivers. Read
    // through the pull `inner` gave 6, so `outer` was attached at 6 while `b` had delivered 1,
    // the filter refreshed from that (excluded: it kept -7), and the batch's end changed
    // nothing: [-7, -7] before, [1, 1] after.
    let selector = BehaviorRelay(4)
    let b = BehaviorRelay(1)
    let inner = Property { b.value }
    let outer = Property { selector.value % 2 == 0 ? -1 : inner.value }
    selector.accept(1)
    var reads: [Int] = []
    let filtered = batch {
      b.accept(6)
      let filtered = outer.filter(initial: -7) { $0 % 3 != 0 }
      reads.append(filtered.value)
      return filtered
    }
    reads.append(filtered.value)
    #expect(reads == [1, 1])
  }

  @Test("A computed property whose branch flipped while unobserved follows it once observed")
  func resumedAfterItsOldInputCompletedFollowsItsNewOne() {
    // `p`, unobserved, is linked to `flag` only (its first run took the `-1` branch); `flag`
    // flips, then its relay goes away, completing it. The subscriber attaches `p`, computed
    // again from what its inputs delivered, which relinks it to `flag` and `input`; but the
    // attachment decided whether `p` completes from the inputs it had before that, all
    // completed: `p` completed, and `input`'s write never reached the sink: [1] before,
    // [1, 5] after.
    var flagRelay: BehaviorRelay<Int>? = BehaviorRelay(0)
    let flag = flagRelay!.asProperty()
    let input = BehaviorRelay(1)
    let p = Property { flag.value % 2 == 0 ? -1 : input.value }
    flagRelay!.accept(1)
    flagRelay = nil
    let seen = Recorder<Int>()
    let token = p.subscribe { seen.record($0) }
    input.accept(5)
    #expect(seen.values == [1, 5])
    token.cancel()
  }

  @Test("A subscriber made in a batch is not given its first value again for a relay it never read")
  func firstValueIsNotRepeatedForARelayItNeverRead() {
    // `p` is linked to `flag` and `inner` (its delivered branch). In the batch, `selector`
    // moves `inner` to `b`, and `flag` flips `p` to read `selector` alone. The first value, 1,
    // is pulled with the stale inputs first: `inner` was computed too, reading `b`, which the
    // record listed though `p` did not read `inner`; the batch then wrote `b`, and its end,
    // which brings exactly the first value's state, was not taken for its repeat: [1, 1]
    // before, [1] after.
    let flag = BehaviorRelay(0)
    let selector = BehaviorRelay(0)
    let a = BehaviorRelay(10)
    let b = BehaviorRelay(20)
    let inner = selector.asProperty().flatMapLatest { $0 == 0 ? a.asProperty() : b.asProperty() }
    let p = Property { flag.value % 2 == 0 ? inner.value : selector.value }
    let seen = Recorder<Int>()
    var token: SubscriptionToken?
    batch {
      selector.accept(1)
      flag.accept(1)
      token = p.subscribe { seen.record($0) }
      b.accept(21)
    }
    #expect(seen.values == [1])
    token?.cancel()
  }

  @Test("A subscriber made in a batch is not given its first value again for another domain's map")
  func firstValueIsNotRepeatedForAnotherDomainsMap() {
    // `p` reads `flag` alone until the batch flips it to read `doubled`, a map of another
    // domain, which the batch's write to `a` makes 14. The first value is 14, pulled from that
    // write; the record listed `doubled` with its change count, which the batch's end moves
    // when it delivers that same write, so that delivery, exactly the first value's state,
    // was not taken for its repeat: [14, 14] before, [14] after.
    let a = BehaviorRelay(5)
    let doubled = a.asProperty().map { $0 * 2 }
    let flag = BehaviorRelay(2)
    let p = Property { flag.value % 2 == 0 ? flag.value : doubled.value }
    let seen = Recorder<Int>()
    var token: SubscriptionToken?
    batch {
      a.accept(7)
      flag.accept(3)
      token = p.subscribe { seen.record($0) }
    }
    #expect(seen.values == [14])
    token?.cancel()
  }

  @Test("A write that leaves another domain's computed property equal repeats no first value")
  func firstValueIsNotRepeatedForAnEqualValueOfAnotherDomain() {
    // Model seed 1720006961 (engine programs, shrunk). `inner`, observed in a domain of its own,
    // is 7 for every even `n`. In the batch, `flag` flips `p` from `other` to `inner`; the new
    // subscriber's first value, 7, reads `inner` as its domain delivered it, which the record
    // lists by its change count (rules 10 and 11: a state is its values, and `inner`'s stands
    // for the relay behind it). The batch then writes `n`, 6, which leaves `inner` at 7: the
    // batch's end brings `p` exactly the state its first value came from, `flag` at its first
    // value's write and `inner` unchanged, a repeat the subscriber is not given again, as a
    // subscriber from before the batch would not be given an unchanged `inner`. The model
    // listed the relay behind `inner` instead, and expected [7, 7]. A later change of `inner`
    // is delivered.
    let flag = BehaviorRelay(0)
    let other = BehaviorRelay(3)
    let n = BehaviorRelay(2)
    let inner = Property { n.value % 2 == 0 ? 7 : n.value }
    let innerToken = inner.subscribe { _ in }
    let p = Property { flag.value % 2 == 0 ? other.value : inner.value }
    let seen = Recorder<Int>()
    var token: SubscriptionToken?
    batch {
      flag.accept(5)
      token = p.subscribe { seen.record($0) }
      n.accept(6)
    }
    #expect(seen.values == [7])
    n.accept(9)
    #expect(seen.values == [7, 9])
    token?.cancel()
    innerToken.cancel()
  }
}
