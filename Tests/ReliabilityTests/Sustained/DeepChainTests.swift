import Foundation
import Invalidating
import InvalidatingTestSupport
import Testing

/// Deep chains of derived values neither overflow the stack nor take more than linear time
/// (issue 13, defect 5): reading the tail of a chain inside a `batch` (which computes it from
/// the newest writes) and releasing the chain must not recurse once per link.
///
/// Both used to recurse: a read in a batch crashed (SIGSEGV) at 100,000 maps on the main thread
/// and at 2,000 maps on a thread with a 512 KiB stack; releasing crashed at 60,000. Each test
/// runs in a child process, since the failure is a crash.
@Suite("Sustained load: deep chains of maps")
struct DeepChainTests {
  @Test("10,000 maps on a thread with a 512 KiB stack: read in a batch, delivered, released")
  func tenThousandMapsOnASmallStack() async {
    await #expect(processExitsWith: .success) {
      let finished = Sustained.onThread(stackSize: 512 * 1024, timeout: 120) {
        let outcome = DeepChainTests.exercise(links: 10_000)
        print("sustained: \(outcome)")
        if !outcome.isCorrect { exit(1) }
      }
      if !finished {
        print("sustained: deep chain timed out (a hang, or far more than linear time)")
        exit(1)
      }
    }
  }

  /// 100,000 links take about 1.5 s in a debug build; under ThreadSanitizer, 30,000.
  @Test("100,000 maps on a thread with an 8 MiB stack (the main thread's): in linear time")
  func aHundredThousandMaps() async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) {
      let finished = Sustained.onThread(stackSize: 8 * 1024 * 1024, timeout: 120) {
        // A tenth of the links first: ten times the links may take at most 25 times as long.
        let links = Sustained.isUnderThreadSanitizer ? 30_000 : 100_000
        let short = DeepChainTests.exercise(links: links / 10)
        let long = DeepChainTests.exercise(links: links)
        let ratio = long.seconds / max(short.seconds, 1e-6)
        print("sustained: \(long); \(short); ratio \(Int(ratio))")
        if !short.isCorrect || !long.isCorrect || ratio > 25 { exit(1) }
      }
      if !finished {
        print("sustained: deep chain timed out (a hang, or far more than linear time)")
        exit(1)
      }
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    print(output.split(separator: "\n").last { $0.hasPrefix("sustained:") } ?? "")
  }

  /// What one chain did.
  struct Outcome: CustomStringConvertible {
    var links: Int
    var readInBatch: Int
    var delivered: Int?
    var seconds: Double

    var isCorrect: Bool { readInBatch == links + 1 && delivered == links + 1 }

    var description: String {
      """
      \(links) maps: read in a batch \(readInBatch), delivered \(delivered ?? -1), built, \
      written and released in \(Int(seconds * 1000)) ms
      """
    }
  }

  /// Builds a chain of `links` maps on a relay, writes the relay in a batch and reads the
  /// tail inside it, lets the batch deliver, then releases the chain.
  static func exercise(links: Int) -> Outcome {
    let start = Sustained.threadCPUSeconds()
    let relay = BehaviorRelay(0)
    var tail = relay.asProperty()
    for _ in 0..<links { tail = tail.map { $0 + 1 } }
    let delivered = Recorder<Int>()
    let token = tail.subscribe(delivered.sink)
    let readInBatch = batch {
      relay.accept(1)
      return tail.value
    }
    var outcome = Outcome(
      links: links, readInBatch: readInBatch, delivered: delivered.last, seconds: 0)
    token.cancel()
    tail = Property(value: 0)  // releases the chain
    outcome.seconds = Sustained.threadCPUSeconds() - start
    return outcome
  }
}
