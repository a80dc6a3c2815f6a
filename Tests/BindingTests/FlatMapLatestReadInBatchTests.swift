import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

/// `flatMapLatest` read inside the batch that wrote: the read follows what the batch wrote to
/// the new inner property (rule 2: reads see writes at once), and the transform runs once per
/// change, however often the value is read before the batch is delivered.
@Suite("flatMapLatest read inside a batch")
struct FlatMapLatestReadInBatchTests {
  /// The inner property chosen by a read inside a batch is not linked yet, so its writes do not
  /// move the outer graph's write count: a value cached for that count went stale.
  @Test(
    "A read after a write to the new inner property sees that write", arguments: [false, true])
  func readFollowsAWriteToTheNewInner(subscribed: Bool) {
    let x = BehaviorRelay(1)
    let y = BehaviorRelay(100)
    let selection = BehaviorRelay(0)
    let followed = selection.asProperty().flatMapLatest {
      $0 == 0 ? x.asProperty() : y.asProperty()
    }
    let seen = Recorder<Int>()
    let token = subscribed ? followed.subscribe(seen.sink) : nil
    let (first, second) = batch {
      selection.accept(1)
      let first = followed.value
      y.accept(101)
      return (first, followed.value)
    }
    #expect(first == 100)
    #expect(second == 101)
    #expect(followed.value == 101)
    if subscribed { #expect(seen.values == [1, 101]) }
    _ = token
  }

  /// A transform that starts a request must not start two for one change.
  @Test("A read inside the batch that wrote runs the transform once for the change")
  func transformRunsOncePerChange() {
    let source = BehaviorRelay(1)
    let runs = Counter()
    let inners = [0, 1, 2, 3].map { BehaviorRelay($0 * 10).asProperty() }
    let followed = source.asProperty().flatMapLatest { value -> Property<Int> in
      runs.bump()
      return inners[value]
    }
    let token = followed.subscribe { _ in }
    let before = runs.value
    batch {
      source.accept(2)
      #expect(followed.value == 20)
      #expect(followed.value == 20)
    }
    #expect(followed.value == 20)
    #expect(runs.value - before == 1)
    // A plain write: once too.
    source.accept(3)
    #expect(runs.value - before == 2)
    _ = token
  }
}
