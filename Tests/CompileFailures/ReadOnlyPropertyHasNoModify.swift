// expect: value of type 'Property<Int>' has no member 'modify'
// Nor modify { }: only the relay has it.
import Invalidating

let count: Property<Int> = BehaviorRelay(0).asProperty()
count.modify { $0 += 1 }
