import Foundation
import Invalidating
import InvalidatingTestSupport
import Synchronization
import Testing

@testable import InvalidatingCore

/// A thread that waits for its turn in a busy domain from inside a computation (a read whose
/// pull makes a property, which attaches in delivery order) may be handed the drainer role,
/// and then delivers other threads' queued work before its own computation resumes. That work
/// is not part of the computation: it must run as if the thread computed nothing (issue 26,
/// "close the class": the concurrent fuzz's "depends on itself" stop, seed 4028760069).
///
/// Each test builds the hand-over step by step: a drainer held in a sink, then threads that
/// queue and park in a known order (the test waits until the domain lists them as waiting),
/// then the drainer let go, which hands its role to the first of them.
@Suite("A thread handed the drain inside a computation")
struct HandedRoleInComputationTests {
  /// A thread of the test, and whether it has returned.
  final class Spawned: Sendable {
    let done = DispatchSemaphore(value: 0)
    let hasReturned = Atomic<Bool>(false)

    /// Runs `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
      Thread { [self] in
        body()
        hasReturned.store(true, ordering: .releasing)
        done.signal()
      }.start()
    }
  }

  /// Waits until `thread` waits for its turn in `domain` (one more thread waits than
  /// `before`), or has returned without waiting; returns how many threads wait now.
  @discardableResult
  static func waitUntilParkedOrReturned(_ thread: Spawned, in domain: Domain, before: Int) -> Int {
    while true {
      let root = domain.lockRoot()
      let waiting = root.role.waiters.count
      root.lock.unlock()
      if waiting > before || thread.hasReturned.load(ordering: .acquiring) { return waiting }
      sched_yield()
    }
  }

  @Test("A read whose pull makes a property while another thread delivers reads one state")
  func subscriptionRunByAReaderHandedTheDrain() {
    let x = BehaviorRelay(0)
    let domain = x.asProperty().node.home
    // Each on-demand read of `f` while a write waits makes a new inner property over `x`: its
    // attachment waits for its turn inside the pull.
    let f = x.asProperty().flatMapLatest { outer in x.asProperty().map { $0 * 10 + outer } }
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    // The drainer: delivering 1, its sink queues 2; delivering 2, its sink queues 3 (a write
    // waiting, so that reads pull) and holds the role until released.
    let token = x.subscribe { value in
      if value == 1 { x.accept(2) }
      if value == 2 {
        x.accept(3)
        held.signal()
        release.wait()
      }
    }
    let drainer = Spawned { x.accept(1) }
    held.wait()
    // The reader: the first to wait, if its attachment waits, so the drainer hands it the role.
    let read = Locked<Int?>(nil)
    let reader = Spawned { read.withLock { $0 = f.value } }
    var waiting = Self.waitUntilParkedOrReturned(reader, in: domain, before: 0)
    // A subscriber queued behind the reader's attachment, and then a fourth write: its first
    // value pulls `f` again, on the reader's thread if the reader was handed the role.
    let seen = Locked<[Int]>([])
    let subscription = Locked<SubscriptionToken?>(nil)
    let subscriber = Spawned {
      let token = f.subscribe { value in seen.withLock { $0.append(value) } }
      subscription.withLock { $0 = token }
    }
    waiting = Self.waitUntilParkedOrReturned(subscriber, in: domain, before: waiting)
    let writer = Spawned { x.accept(4) }
    Self.waitUntilParkedOrReturned(writer, in: domain, before: waiting)
    release.signal()
    for thread in [drainer, reader, subscriber, writer] { thread.done.wait() }
    // The reader read once 3 was written: 10 × 3 + 3, not a value mixing 3 with the 4
    // written while its computation waited (43, before the fix). The subscription, queued
    // before the fourth write, starts from 3 and then gets 4.
    #expect(read.withLock { $0 } == 33)
    #expect(seen.withLock { $0 } == [33, 44])
    #expect(f.value == 44)
    subscription.withLock { $0?.cancel() }
    token.cancel()
  }
}
