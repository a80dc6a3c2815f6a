import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

/// Minimal reproductions of engine (Core) problems found while building the Binding layer.
@Suite struct EngineIssueTests {
  /// `ValueNode.commit()` replaces the delivered value while holding the domain's lock, so the
  /// old value is released under it. When that value's deinit takes the same lock (here a
  /// `Property` of the same graph, whose deinit releases its handle), the write deadlocks.
  @Test
  func replacingAValueThatHoldsAPropertyOfTheSameGraph() {
    let source = BehaviorRelay(1)
    let property = source.asProperty()
    let holder = property.map { _ in property.map { $0 } }
    let token = holder.subscribe { _ in }
    source.accept(2)
    #expect(holder.value.value == 2)
    _ = token
  }
}
