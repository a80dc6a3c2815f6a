import Dispatch
import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct FlatMapLatestTests {
  @Test func followsTheNewestInnerPropertyOnly() {
    let first = BehaviorRelay("a1")
    let second = BehaviorRelay("b1")
    let selection = BehaviorRelay(0)
    let inners = [first.asProperty(), second.asProperty()]
    let selected = selection.asProperty().flatMapLatest { inners[$0] }
    let seen = Recorder<String>()
    let token = selected.subscribe(seen.sink)
    first.accept("a2")
    selection.accept(1)
    first.accept("a3")
    second.accept("b2")
    selection.accept(0)
    #expect(seen.values == ["a1", "a2", "b1", "b2", "a3"])
    #expect(selected.value == "a3")
    _ = token
  }

  @Test func aWriteThatChangesOuterAndInnerIsSeenOnce() {
    let source = BehaviorRelay(1)
    let property = source.asProperty()
    let result = property.flatMapLatest { outer in property.map { "\(outer)-\($0)" } }
    let seen = Recorder<String>()
    let token = result.subscribe(seen.sink)
    source.accept(2)
    source.accept(3)
    #expect(seen.values == ["1-1", "2-2", "3-3"])
    _ = token
  }

  @Test func switchesInsideABatch() {
    let inner = BehaviorRelay(10)
    let other = BehaviorRelay(20)
    let useOther = BehaviorRelay(false)
    let a = inner.asProperty()
    let b = other.asProperty()
    let result = useOther.asProperty().flatMapLatest { $0 ? b : a }
    let seen = Recorder<Int>()
    let token = result.subscribe(seen.sink)
    batch {
      useOther.accept(true)
      other.accept(21)
      inner.accept(11)
    }
    inner.accept(12)
    other.accept(22)
    // One delivery for the batch, with the new inner property's batch value.
    #expect(seen.values == [10, 21, 22])
    #expect(seen.values.last == 22)
    _ = token
  }

  @Test func transformRunsOncePerChangeOfTheOuterProperty() {
    let selection = BehaviorRelay(0)
    let calls = Recorder<Int>()
    let inners = [BehaviorRelay("a"), BehaviorRelay("b")]
    let result = selection.asProperty().flatMapLatest { index -> Property<String> in
      calls.record(index)
      return inners[index].asProperty()
    }
    let token = result.subscribe { _ in }
    selection.accept(1)
    selection.accept(1)
    selection.accept(0)
    #expect(calls.values == [0, 1, 1, 0])
    _ = token
  }

  @Test func theResultDoesNotKeepReplacedInnerPropertiesAlive() {
    let selection = BehaviorRelay(0)
    let source = BehaviorRelay(1)
    let tracker = LifetimeTracker()
    let result = selection.asProperty().flatMapLatest { offset -> Property<Int> in
      let inner = source.asProperty().map { $0 + offset }
      tracker.track(inner, "inner \(offset)")
      return inner
    }
    let seen = Recorder<Int>()
    let token = result.subscribe(seen.sink)
    selection.accept(10)
    source.accept(2)
    #expect(seen.values == [1, 11, 12])
    #expect(tracker.alive == ["inner 10"])
    _ = token
  }
}

@Suite struct FlatMapLatestInBatchTests {
  @Test("Created inside a batch, flatMapLatest follows the inner property its value comes from")
  func createdInsideABatch() {
    let raw = BehaviorRelay(1)
    let selector = raw.asProperty().map { $0 > 0 ? 0 : 1 }.removeDuplicates()
    let first = BehaviorRelay(10)
    let second = BehaviorRelay(20)
    var result: Property<Int>?
    batch {
      raw.accept(-1)
      result = selector.flatMapLatest { $0 == 0 ? first.asProperty() : second.asProperty() }
      #expect(result?.value == 20)  // reads inside the batch see its writes
      raw.accept(2)  // back: the selector's delivered value never changes
    }
    #expect(result?.value == 10)
    first.accept(11)
    #expect(result?.value == 11)
    second.accept(21)
    #expect(result?.value == 11)
  }

  @Test("Created while another thread delivers a change of its outer property, it follows it")
  func createdDuringAnotherThreadsDelivery() {
    let selection = BehaviorRelay(0)
    let a = BehaviorRelay("a")
    let b = BehaviorRelay("b")
    let inners = [a.asProperty(), b.asProperty()]
    let outer = selection.asProperty()
    // Holds the other thread inside its delivery of 1, before the change is committed. The
    // semaphores' timeouts only keep a broken engine from hanging the test.
    let delivering = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let gate = outer.map { value -> Int in
      if value == 1 {
        delivering.signal()
        _ = proceed.wait(timeout: .now() + 10)
      }
      return value
    }
    let gateToken = gate.subscribe { _ in }
    DispatchQueue.global().async {
      selection.accept(1)
      done.signal()
    }
    #expect(delivering.wait(timeout: .now() + 10) == .success)
    // Created now, it reads the delivered 0; its attachment waits behind the delivery of 1.
    let selected = outer.flatMapLatest { inners[$0] }
    proceed.signal()
    #expect(done.wait(timeout: .now() + 10) == .success)
    let seen = Recorder<String>()
    let token = selected.subscribe(seen.sink)
    b.accept("b2")
    a.accept("a2")
    #expect(selected.value == "b2")
    #expect(seen.values == ["b", "b2"])
    _ = (gateToken, token)
  }
}
