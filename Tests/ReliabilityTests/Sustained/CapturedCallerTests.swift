import Foundation
import Invalidating
import Synchronization
import Testing

@testable import InvalidatingCore

/// Rule 9 under a sustained writer (issue 13, defect 1): one thread writes a relay in a tight
/// loop while another makes single calls on it. A call returns after delivering at most what was
/// queued before it, plus a bound; the hand-over queue stays bounded; and every write is still
/// delivered, in order, the sink ending on the final value.
///
/// It used to capture the second thread: its call took the delivery role and kept delivering the
/// producer's handed-over writes until the producer stopped (4–12 s), while the queue grew
/// without limit (800 MB in 5 s).
@Suite("Sustained load: a caller is not captured by another thread's writes", .serialized)
struct CapturedCallerTests {
  /// Writes the producer makes: the test's length, whatever the engine does (fewer under
  /// ThreadSanitizer, where each costs ten times as much).
  static let producerWrites = Sustained.isUnderThreadSanitizer ? 30_000 : 100_000
  /// Calls the second thread makes at most, while the producer writes.
  static let probeCalls = 20_000
  /// How many events beyond those queued before it one call may deliver: the contract's bound
  /// (rule 9) is what others queue before the call's snapshot of the queue, at most
  /// `Engine.handOverLimit`, plus one change per thread waiting for its turn (here, one).
  static let deliveryBound = Engine.handOverLimit + 1
  /// How long the hand-over queue may grow: the limit, plus one change per waiting thread.
  static let queueBound = Engine.handOverLimit + 2

  enum Call: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case accept = "relay.accept(-1)"
    case subscribeAndCancel = "relay.subscribe { _ in }.cancel()"
    var testDescription: String { rawValue }
  }

  @Test(
    "A call on a relay another thread writes non-stop returns after what was queued before it",
    arguments: Call.allCases)
  func aCallDeliversWhatWasQueuedBeforeItPlusABound(_ call: Call) {
    let relay = BehaviorRelay(0)
    let node = relay.asProperty().node
    let probeThread = Atomic<UInt>(0)
    let deliveredOnProbe = Atomic<Int>(0)
    let sinkCalls = Atomic<Int>(0)
    let outOfOrder = Atomic<Int>(0)
    let lastProducerValue = Atomic<Int>(0)
    let lastValue = Atomic<Int>(0)
    let peakQueue = Maximum()
    // The sink never runs concurrently with itself: plain loads and stores of the atomics.
    let token = relay.subscribe { value in
      let calls = sinkCalls.add(1, ordering: .relaxed).newValue
      if ThreadIdentity.current.raw == probeThread.load(ordering: .relaxed) {
        deliveredOnProbe.add(1, ordering: .relaxed)
      }
      if value >= 0 {
        if value < lastProducerValue.load(ordering: .relaxed) {
          outOfOrder.add(1, ordering: .relaxed)
        }
        lastProducerValue.store(value, ordering: .relaxed)
      }
      lastValue.store(value, ordering: .relaxed)
      if calls % 256 == 0 { peakQueue.record(Self.queueLength(of: node)) }
    }
    // Other subscribers, through a derived value too: delivering a write costs more than
    // handing it over, as in an application.
    let others = Probe()
    let doubled = relay.asProperty().map { $0 &* 2 }
    let otherTokens =
      (0..<4).map { _ in relay.subscribe(others.sink) } + [doubled.subscribe(others.sink)]
    let producerDone = Atomic<Bool>(false)
    let worstCall = Mutex<Double>(0)
    let worstExcess = Maximum()
    let probeCallsMade = Counter()
    let residentBefore = Sustained.residentBytes()
    let peakResident = Maximum()

    let finished = runConcurrently(threads: 2, timeout: 60 * Sustained.slowdown) { thread in
      if thread == 0 {
        for value in 1...Self.producerWrites { relay.accept(value) }
        producerDone.store(true, ordering: .releasing)
        return
      }
      probeThread.store(ThreadIdentity.current.raw, ordering: .releasing)
      for _ in 0..<Self.probeCalls where !producerDone.load(ordering: .acquiring) {
        let queued = Self.queueLength(of: node)
        peakQueue.record(queued)
        let deliveredBefore = deliveredOnProbe.load(ordering: .relaxed)
        let start = Sustained.now()
        switch call {
        case .accept: relay.accept(-1)
        case .subscribeAndCancel: relay.subscribe { _ in }.cancel()
        }
        let seconds = Sustained.now() - start
        let delivered = deliveredOnProbe.load(ordering: .relaxed) - deliveredBefore
        worstExcess.record(delivered - queued - 1)
        worstCall.withLock { $0 = max($0, seconds) }
        probeCallsMade.increment()
        peakResident.record(Sustained.residentBytes())
      }
    }

    #expect(finished, "a thread did not finish: deadlock")
    let worstMilliseconds = Int(worstCall.withLock { $0 } * 1000)
    let growth = max(0, peakResident.value - residentBefore) / 1_048_576
    print(
      """
      sustained: captured caller (\(call.rawValue)): worst call \(worstMilliseconds) ms, \
      delivered up to \(worstExcess.value) events beyond those queued before it, peak queue \
      \(peakQueue.value), RSS +\(growth) MB, \(probeCallsMade.value) calls while the \
      producer made \(Self.producerWrites) writes
      """)
    #expect(
      worstExcess.value <= Self.deliveryBound,
      "a call delivered \(worstExcess.value) events more than were queued before it")
    #expect(peakQueue.value <= Self.queueBound, "the hand-over queue grew without bound")
    // Generous, and only a backstop: the counts above are the noise-free assertions.
    #expect(Double(worstMilliseconds) <= 1_000 * Sustained.slowdown)
    // Every write delivered, in order, ending on the final value.
    let probeWrites = call == .accept ? probeCallsMade.value : 0
    #expect(sinkCalls.load(ordering: .relaxed) == 1 + Self.producerWrites + probeWrites)
    #expect(outOfOrder.load(ordering: .relaxed) == 0)
    #expect(lastValue.load(ordering: .relaxed) == relay.value)
    #expect(lastProducerValue.load(ordering: .relaxed) == Self.producerWrites)
    #expect(others.overlaps == 0)
    token.cancel()
    for token in otherTokens { token.cancel() }
  }

  /// The number of events waiting in the hand-over queue of `node`'s domain.
  static func queueLength(of node: AnyNode) -> Int {
    let root = node.home.lockRoot()
    defer { root.lock.unlock() }
    return root.queue.count
  }
}
