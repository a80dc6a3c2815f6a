// expect: 'Signal' is ambiguous for type lookup in this context
import Invalidating
import RxCocoa

func signal(of relay: Invalidating.PublishRelay<Int>) -> Signal<Int> {
  relay.asSignal()
}
