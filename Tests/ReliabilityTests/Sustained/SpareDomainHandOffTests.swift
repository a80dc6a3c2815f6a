import Foundation
import Invalidating
import InvalidatingTestSupport
import Synchronization
import Testing

@testable import InvalidatingCore

/// Spare domains (issue 30) under two threads that never pause: one makes relays (taking the
/// domains its own releases left), the other uses and releases them (filling its own spares,
/// which it takes back for the relays it makes too). Each thread reads what it and the other
/// wrote; a domain reused while something still used it would show another relay's value, a
/// lost delivery or a stop.
@Suite("Sustained load: spare domains under two threads", .serialized)
struct SpareDomainHandOffTests {
  /// A relay handed from the making thread to the using one, with what it must hold.
  struct HandOff: @unchecked Sendable {
    // Safe: the relay is thread-safe; the recorder is read only after the other thread's last
    // write to it, through the lock that hands the value over.
    let relay: BehaviorRelay<Int>
    let seen: Recorder<Int>
    let token: SubscriptionToken
    let written: Int
  }

  /// The relays on their way, behind an `NSLock` (whose pthread mutex ThreadSanitizer
  /// follows).
  final class HandOffQueue: @unchecked Sendable {
    // Safe: `items` is only touched while `lock` is held.
    private let lock = NSLock()
    private var items: [HandOff] = []

    var count: Int { lock.withLock { items.count } }
    func append(_ item: HandOff) { lock.withLock { items.append(item) } }
    func takeAll() -> [HandOff] {
      lock.withLock {
        defer { items.removeAll(keepingCapacity: true) }
        return items
      }
    }
  }

  @Test("Relays made on one thread, written, read and released on another")
  func handOff() {
    let rounds = Sustained.isUnderThreadSanitizer ? 5_000 : 50_000
    let queue = HandOffQueue()
    let wrong = Atomic<Int>(0)
    let used = Atomic<Int>(0)
    let finished = DispatchSemaphore(value: 0)
    let maker = Thread {
      defer { finished.signal() }
      for round in 0..<rounds {
        let relay = BehaviorRelay(round)
        let seen = Recorder<Int>()
        let token = relay.subscribe(seen.sink)
        relay.accept(round + 1)
        if relay.value != round + 1 || seen.values != [round, round + 1] {
          wrong.add(1, ordering: .relaxed)
        }
        // A relay of this thread's own, made and released alone: it takes and leaves spares.
        let mine = BehaviorRelay(-round)
        if mine.value != -round { wrong.add(1, ordering: .relaxed) }
        queue.append(HandOff(relay: relay, seen: seen, token: token, written: round + 1))
        while queue.count > 64 { sched_yield() }
      }
    }
    let user = Thread {
      defer { finished.signal() }
      var done = 0
      while done < rounds {
        let taken = queue.takeAll()
        if taken.isEmpty { sched_yield() }
        for handOff in taken {
          let relay = handOff.relay
          if relay.value != handOff.written { wrong.add(1, ordering: .relaxed) }
          relay.accept(handOff.written + 1)
          if relay.value != handOff.written + 1
            || handOff.seen.values != [handOff.written - 1, handOff.written, handOff.written + 1]
          {
            wrong.add(1, ordering: .relaxed)
          }
          handOff.token.cancel()
          // A relay of this thread's own, in the domain the last hand-off's release left.
          let mine = BehaviorRelay(handOff.written)
          if mine.value != handOff.written { wrong.add(1, ordering: .relaxed) }
          done += 1
        }
        used.add(taken.count, ordering: .relaxed)
      }
    }
    maker.start()
    user.start()
    let deadline = DispatchTime.now() + 120 * Sustained.slowdown
    #expect(finished.wait(timeout: deadline) == .success)
    #expect(finished.wait(timeout: deadline) == .success)
    print(
      "sustained: spare domains, \(used.load(ordering: .relaxed)) relays handed off, \(wrong.load(ordering: .relaxed)) wrong"
    )
    #expect(used.load(ordering: .relaxed) == rounds)
    #expect(wrong.load(ordering: .relaxed) == 0)
  }
}
