import Foundation
import Testing

@testable import InvalidatingCore

#if !canImport(Darwin) && canImport(InvalidatingPrimitives)
  import InvalidatingPrimitives
#endif

/// The engine's lock under contention: mutual exclusion, and the holder's writes seen by the
/// thread that waited for it (off Apple platforms, through the futex lock's sleep and wake-up).
@Suite("The engine's lock")
struct LockTests {
  @Test("threads incrementing one plain counter under the lock lose no increment")
  func mutualExclusion() {
    let threads = 4
    let increments = 100_000
    let lock = Lock()
    let counter = Counter()
    let start = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<threads {
      Thread {
        start.wait()
        for _ in 0..<increments {
          lock.lock()
          counter.value += 1
          lock.unlock()
        }
        finished.signal()
      }.start()
    }
    // More threads than this machine's two cores, released together: they contend, and some
    // are preempted while holding the lock.
    for _ in 0..<threads { start.signal() }
    for _ in 0..<threads { #expect(finished.wait(timeout: .now() + 60) == .success) }
    lock.lock()
    #expect(counter.value == threads * increments)
    lock.unlock()
  }

  @Test("a thread that finds the lock held waits, then sees what the holder wrote")
  func waiterSeesHolderWrites() {
    let lock = Lock()
    let log = Log()
    let waiterStarted = DispatchSemaphore(value: 0)
    let waiterDone = DispatchSemaphore(value: 0)
    lock.lock()
    Thread {
      waiterStarted.signal()
      lock.lock()
      log.entries.append("waiter saw \(log.value)")
      lock.unlock()
      waiterDone.signal()
    }.start()
    waiterStarted.wait()
    // A waiter that got in while the lock is held would finish before the holder writes.
    var waiterFinished = false
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      // Until the waiter marks the word 2 (a thread may sleep on it): it has given up spinning,
      // so the unlock below must wake it.
      while invalidating_lock_load(lock.handle.primitive) != 2 && !waiterFinished {
        waiterFinished = waiterDone.wait(timeout: .now()) == .success
        sched_yield()
      }
    #endif
    log.value = 42
    log.entries.append("holder wrote 42")
    lock.unlock()
    // Bounded, so that a lost wake-up fails the test instead of hanging it.
    waiterFinished = waiterFinished || waiterDone.wait(timeout: .now() + 60) == .success
    #expect(waiterFinished)
    lock.lock()
    #expect(log.entries == ["holder wrote 42", "waiter saw 42"])
    lock.unlock()
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      #expect(invalidating_lock_load(lock.handle.primitive) == 0)
    #endif
  }
}

/// A plain counter, touched only with the test's lock held.
private final class Counter: @unchecked Sendable {
  // Safe: only touched with the test's lock held.
  var value = 0
}

/// What the threads of a test did, in order, and a value one writes for the other to read.
private final class Log: @unchecked Sendable {
  // Safe: only touched with the test's lock held.
  var entries: [String] = []
  var value = 0
}
