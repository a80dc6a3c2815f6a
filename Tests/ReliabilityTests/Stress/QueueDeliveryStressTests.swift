import Dispatch
import Foundation
import Invalidating
import Testing

/// Delivery elsewhere (`observe(on:)`, `drive`) under sustained writers from
/// several threads: the sink runs one call at a time, and after the writers stop its last call
/// has the final value, on any queue, serial or concurrent (issue 13, defect 4).
@Suite("Delivery on a queue under load")
struct QueueDeliveryStressTests {
  static let rounds = 5
  static let writers = 4
  static let writesPerWriter = 5_000

  @Test(
    "observe(on:) a concurrent queue, four writer threads: one call at a time, ending on the final value",
    arguments: [true, false])
  func queueDeliveryEndsOnTheFinalValue(concurrent: Bool) {
    var staleRounds: [String] = []
    var overlaps = 0
    for round in 0..<Self.rounds {
      let relay = BehaviorRelay(0)
      let queue = DispatchQueue(
        label: "delivery \(round)", attributes: concurrent ? .concurrent : [])
      let onQueue = Probe()
      // What the sink's work ended with: the value a view would show.
      let shown = Probe()
      let plain = Probe()
      let mapped = Probe()
      let tokens = [
        // A sink that does some work before it shows the value, as one that updates a view
        // would: drains that overlap then overlap for long enough to be seen.
        relay.asProperty().observe(on: queue) { value in
          onQueue.enter(value) {
            Self.work()
            shown.enter(value)
          }
        },
        relay.subscribe(plain.sink),
        relay.asProperty().map { $0 &* 2 }.subscribe(mapped.sink),
      ]
      let next = Counter()
      let finished = runConcurrently(threads: Self.writers) { _ in
        for _ in 0..<Self.writesPerWriter {
          next.increment()
          relay.accept(next.value)
        }
      }
      #expect(finished, "a writer did not finish: deadlock")
      Self.waitUntilQuiet(queue, onQueue)
      let final = relay.value
      overlaps += onQueue.overlaps
      if shown.last != final {
        staleRounds.append("\(shown.last ?? -1) instead of \(final)")
      }
      #expect(plain.last == final)
      #expect(mapped.last == final &* 2)
      for token in tokens { token.cancel() }
    }
    print(
      """
      sustained: observe(on: \(concurrent ? "concurrent" : "serial") queue), \(Self.writers) \
      writers x \(Self.writesPerWriter): \(staleRounds.count) of \(Self.rounds) rounds ended \
      stale \(staleRounds), \(overlaps) overlapping sink calls
      """)
    #expect(staleRounds.isEmpty, "the sink's last call had an older value than the final one")
    #expect(overlaps == 0, "the sink ran concurrently with itself")
  }

  @Test("drive, four writer threads: ends on the final value")
  @MainActor
  func mainActorDeliveryEndsOnTheFinalValue() async {
    let relay = BehaviorRelay(0)
    let probe = Probe()
    let token = relay.asProperty().drive { value in probe.enter(value) }
    let next = Counter()
    let finished = await Task.detached {
      runConcurrently(threads: Self.writers) { _ in
        for _ in 0..<Self.writesPerWriter {
          next.increment()
          relay.accept(next.value)
        }
      }
    }.value
    #expect(finished, "a writer did not finish: deadlock")
    let final = relay.value
    // The main actor is serial, so the drains cannot overlap; wait (with a timeout, to detect
    // a lost final value) for the final value, then give any stale drain the chance to run.
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(10)
    while probe.last != final && clock.now < deadline { await Task.yield() }
    for _ in 0..<100 { await Task.yield() }
    print("sustained: drive ended on \(probe.last ?? -1), final \(final)")
    #expect(probe.last == final)
    #expect(probe.overlaps == 0)
    token.cancel()
  }

  /// A few microseconds of work the optimizer cannot remove.
  static func work() {
    var state = UInt64(0x9E37_79B9)
    for _ in 0..<2_000 { state = state &* 6_364_136_223_846_793_005 &+ 1 }
    if state == 0 { print("unreachable") }
  }

  /// Returns once no drain of `probe`'s sink is waiting on `queue` or running.
  ///
  /// A sink call that starts before `calls` is read ends before the first barrier runs, and
  /// any drain it schedules is submitted before that, so it runs before the second barrier and
  /// changes `calls`. Two barriers with no new call in between mean the queue is quiet.
  static func waitUntilQuiet(_ queue: DispatchQueue, _ probe: Probe) {
    for _ in 0..<10_000 {
      let calls = probe.calls
      queue.sync(flags: .barrier) {}
      queue.sync(flags: .barrier) {}
      if probe.calls == calls { return }
    }
    Issue.record("the queue never went quiet")
  }
}
