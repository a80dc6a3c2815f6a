// compiles
// In a file that imports Invalidating and RxRelay, the unqualified RxRelay spellings are
// RxRelay's relays, without a word from the compiler; only `BehaviorRelay(_:)` is ours.
import Invalidating
import RxRelay
import RxSwift

func unqualifiedNames() {
  let labelled = BehaviorRelay(value: 0)
  let events = PublishRelay<Int>()
  let unlabelled = BehaviorRelay(0)
  let _: RxRelay.BehaviorRelay<Int> = labelled
  let _: RxRelay.PublishRelay<Int> = events
  let _: Invalidating.BehaviorRelay<Int> = unlabelled
}
