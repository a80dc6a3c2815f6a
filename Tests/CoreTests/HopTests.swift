import InvalidatingTestSupport
import Synchronization
import Testing

@testable import InvalidatingCore

/// The one hop to another executor (see `Hop`), driven by a schedule the test runs by hand.
@Suite("Hop: what waits for the target, and how it runs there")
struct HopTests {
  /// Flushes the hop scheduled, run when the test says.
  final class ManualTarget: Sendable {
    private let flushes = Mutex<[@Sendable () -> Void]>([])
    var schedule: @Sendable (@escaping @Sendable () -> Void) -> Void {
      { flush in self.flushes.withLock { $0.append(flush) } }
    }
    var scheduled: Int { flushes.withLock { $0.count } }
    /// Runs the flushes scheduled so far, oldest first.
    func runScheduled() {
      let taken = flushes.withLock { flushes -> [@Sendable () -> Void] in
        defer { flushes = [] }
        return flushes
      }
      for flush in taken { flush() }
    }
  }

  @Test("latest keeps the newest value; one flush however many sends")
  func latestCoalesces() {
    let target = ManualTarget()
    let seen = Recorder<Int>()
    let hop = Hop<Int>(.latest, schedule: target.schedule, run: seen.sink)
    for value in 1...5 { hop.send(value) }
    #expect(target.scheduled == 1)
    #expect(seen.values == [])
    target.runScheduled()
    #expect(seen.values == [5])
  }

  @Test("everyInOrder keeps every value, in order")
  func everyInOrderKeepsAll() {
    let target = ManualTarget()
    let seen = Recorder<Int>()
    let hop = Hop<Int>(.everyInOrder, schedule: target.schedule, run: seen.sink)
    for value in 1...5 { hop.send(value) }
    #expect(target.scheduled == 1)
    target.runScheduled()
    #expect(seen.values == [1, 2, 3, 4, 5])
  }

  @Test("A value sent on the target runs at once; one sent by the handler runs after it")
  func runsHereWithoutNesting() {
    let target = ManualTarget()
    let seen = Recorder<String>()
    final class Box: @unchecked Sendable { var hop: Hop<Int>? }
    let box = Box()
    let run: @Sendable (Int) -> Void = { value in
      seen.record("start \(value)")
      if value == 1 { box.hop?.send(2) }
      seen.record("end \(value)")
    }
    let hop = Hop<Int>(.everyInOrder, schedule: target.schedule, runsHere: { true }, run: run)
    box.hop = hop
    hop.send(1)
    #expect(seen.values == ["start 1", "end 1", "start 2", "end 2"])
    #expect(target.scheduled == 0)
  }

  @Test("A handler that keeps sending yields the target after callsPerFlush rounds")
  func aFlushYieldsAfterItsLimit() {
    let target = ManualTarget()
    let runs = Counter()
    final class Box: @unchecked Sendable { var hop: Hop<Int>? }
    let box = Box()
    let hop = Hop<Int>(.latest, schedule: target.schedule) { value in
      runs.bump()
      box.hop?.send(value + 1)
    }
    box.hop = hop
    hop.send(0)
    target.runScheduled()
    #expect(runs.value == Hop<Int>.callsPerFlush)
    #expect(target.scheduled == 1)
    box.hop = nil
  }

  @Test("Waiting values are dropped once the hop is let go, unless it completed")
  func lifetime() {
    let target = ManualTarget()
    let seen = Recorder<Int>()
    var dropped: Hop<Int>? = Hop<Int>(.latest, schedule: target.schedule, run: seen.sink)
    dropped?.send(1)
    dropped = nil
    target.runScheduled()
    #expect(seen.values == [])

    var completed: Hop<Int>? = Hop<Int>(.latest, schedule: target.schedule, run: seen.sink)
    completed?.send(2)
    completed?.complete()
    weak let weakHop = completed
    completed = nil
    #expect(weakHop != nil)  // kept alive by what waits
    target.runScheduled()
    #expect(seen.values == [2])
    #expect(weakHop == nil)
  }
}
