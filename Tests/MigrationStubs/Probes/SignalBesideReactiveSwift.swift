// expect: generic type 'Signal' specialized with too few type parameters
import Invalidating
import ReactiveSwift

func signal(of relay: Invalidating.PublishRelay<Int>) -> Signal<Int> {
  relay.asSignal()
}
