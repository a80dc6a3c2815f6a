import Foundation
import InvalidatingTestSupport
import Synchronization
import Testing

@testable import InvalidatingCore

/// One test per rule of the engine's contract (ARCHITECTURE.md), named after the rule.
@Suite("The engine's contract")
struct ContractTests {
  @Test("Rule 1: synchronous outside a batch")
  func rule1Synchronous() {
    let source = SourceNode(0)
    let doubled = derive(source) { $0 * 2 }
    let seen = Recorder<Int>()
    let token = doubled.subscribe(
      emitsCurrentValue: true,
      onCompletion: { completions.withLock { $0 += 1 } },
      { [captured] _ in _ = captured })
    captured = nil
    #expect(capturedRef.object != nil)  // held by the sink
    source?.complete()
    source = nil
    #expect(completions.withLock { $0 } == 1)
    #expect(capturedRef.object == nil)  // the sink was released with the completion
    #expect(doubled.currentValue() == 2)  // the last value stays readable
    token.cancel()
  }
}
