// expect: 'Property' is ambiguous for type lookup in this context
import Invalidating
import ReactiveSwift

func property(of relay: Invalidating.BehaviorRelay<Int>) -> Property<Int> {
  relay.asProperty()
}
