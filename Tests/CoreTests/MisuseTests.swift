import Testing

@testable import InvalidatingCore

/// Misuse stops the program with a message that names the mistake and the fix.
@Suite("Misuse")
struct MisuseTests {
  @Test("A sink that never stops writing stops at the re-entrancy limit, with a message")
  func runawayReentrancy() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let source = SourceNode(0)
      let token = source.subscribe(emitsCurrentValue: false) { value in source.write(value + 1) }
      source.write(1)
      token.cancel()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Runaway re-entrancy"))
    #expect(message.contains("removeDuplicates()"))
  }

  @Test("A derived value that reads itself stops with a message naming the cycle")
  func selfDependency() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let source = SourceNode(0)
      let holder = NodeHolder()
      let node = DerivedNode<Int>(inputs: [source]) { mode, _ in
        source.read(mode) + (holder.node?.currentValue() ?? 0)
      }
      holder.node = node
      source.write(1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("depends on itself"))
  }
}

/// Lets a derived node's transform refer to the node itself, which is the mistake under test.
final class NodeHolder: @unchecked Sendable {
  // Safe: written once before the node is used, on the same thread.
  var node: DerivedNode<Int>?
}
