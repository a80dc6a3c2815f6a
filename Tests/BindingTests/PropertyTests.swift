import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct PropertyTests {
  @Test func propertyFromARelayNeedsNoExplicitGeneric() {
    let relay = BehaviorRelay(1)
    let property = Property(relay)
    let other: Property<Int> = relay.asProperty()
    let seen = Recorder<Int>()
    let token = property.subscribe(seen.sink)
    relay.accept(2)
    #expect(property.value == 2)
    #expect(other.value == 2)
    #expect(seen.values == [1, 2])
    _ = token
  }

  @Test func aConstantPropertyDeliversOnce() {
    let constant = Property(value: 7)
    let seen = Recorder<Int>()
    let token = constant.subscribe(seen.sink)
    #expect(constant.value == 7)
    #expect(seen.values == [7])
    _ = token
  }
}

@Suite struct ReadWriteTests {
  final class CounterViewModel {
    @ReadWrite(0) var count: Property<Int>
    func increment() { $count.accept(count.value + 1) }
  }

  @Test func theProjectedRelayWritesTheReadOnlyProperty() {
    let model = CounterViewModel()
    let seen = Recorder<Int>()
    let token = model.count.subscribe(seen.sink)
    model.increment()
    model.increment()
    model.$count.accept(10)
    #expect(model.count.value == 10)
    #expect(seen.values == [0, 1, 2, 10])
    _ = token
  }
}
