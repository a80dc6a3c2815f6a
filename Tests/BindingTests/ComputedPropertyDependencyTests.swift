import Dispatch
import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Synchronization
import Testing

/// A one-shot switch that `@Sendable` computations can test: `take()` is `true` once after
/// `arm()`.
private final class OneShot: Sendable {
  private let armed = Mutex(false)
  func arm() { armed.withLock { $0 = true } }
  func take() -> Bool {
    armed.withLock { armed in
      let wasArmed = armed
      armed = false
      return wasArmed
    }
  }
}

/// Dependencies a computed property finds inside its runs, inside batches and while other
/// threads deliver: each test states a result the contract promises.
@Suite("Computed properties: dependencies found inside runs, batches and others' deliveries")
struct ComputedPropertyDependencyTests {
  /// A computation that makes a relay of its own and reads it: the run holds no handle on a
  /// source (it is never detached), and the relay's node, released by its owner at the end of
  /// the closure, stays the property's input with its last value until a later run reads
  /// another.
  @Test func aRelayMadeAndReadInsideAComputationStaysItsInput() {
    let a = BehaviorRelay(1)
    let made = Locked(0)
    let outer = Property<Int> {
      made.withLock { $0 += 1 }
      return BehaviorRelay(10 * made.withLock { $0 }).value + a.value
    }
    let seen = Recorder<Int>()
    let token = outer.subscribe(seen.sink)
    a.accept(2)
    #expect(seen.values == [11, 22])
    #expect(outer.value == 22)
    _ = token
  }

  /// A computation that makes a computed property of its own and reads it: the first run
  /// reads the inner one, which is released at the end of the closure (and leaves the graph)
  /// before the outer node attaches to it.
  @Test func aComputedPropertyMadeAndReadInsideAComputationIsFollowed() {
    let a = BehaviorRelay(1)
    let outer = Property<Int> {
      let inner = Property { a.value * 2 }
      return inner.value + 1
    }
    let seen = Recorder<Int>()
    let token = outer.subscribe(seen.sink)
    a.accept(2)
    #expect(outer.value == 5)
    #expect(seen.values == [3, 5])
    a.accept(3)
    #expect(outer.value == 7)
    token.cancel()
  }

  /// Inside a batch, a read computes on demand from the newest writes; the cached value is
  /// keyed on the write count of the property's own domain, so a write to a dependency that
  /// only this run found (another domain, not linked until delivery) does not make it stale.
  @Test func aReadInsideABatchSeesAWriteToADependencyFoundInTheBatch() {
    let flag = BehaviorRelay(false)
    let other = BehaviorRelay(0)
    let value = Property { flag.value ? other.value : -1 }
    batch {
      flag.accept(true)
      #expect(value.value == 0)
      other.accept(7)
      #expect(value.value == 7)  // "Reads inside it see the new values at once."
    }
    #expect(value.value == 7)
  }

  /// A delivery recomputes the property, which now reads `other`, a property of another
  /// domain. A write to `other` that lands after that read, before the edge exists, is
  /// delivered in `other`'s domain without reaching the property; nothing catches it up.
  @Test func aWriteToANewDependencyDuringTheComputationIsNotMissed() {
    let flag = BehaviorRelay(false)
    let other = BehaviorRelay(0)
    let pause = OneShot()
    let paused = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    let value = Property<Int> {
      guard flag.value else { return -1 }
      let read = other.value
      if pause.take() {
        paused.signal()
        resume.wait()
      }
      return read
    }
    let seen = Recorder<Int>()
    let token = value.subscribe(seen.sink)
    pause.arm()
    let delivered = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      flag.accept(true)
      delivered.signal()
    }
    paused.wait()
    other.accept(5)  // other's domain is free: delivered here, at once
    resume.signal()
    delivered.wait()
    #expect(value.value == 5)
    #expect(seen.last == 5)
    token.cancel()
  }

  /// As above, but `other`'s domain is busy on a third thread, so the relink is queued behind
  /// the write and the property is refreshed when it runs: the refresh computes the new value,
  /// but tells no subscriber.
  @Test func aRelinkQueuedBehindAnotherThreadNotifiesSubscribersOfTheCatchUp() {
    let flag = BehaviorRelay(false)
    let other = BehaviorRelay(0)
    let block = OneShot()
    let inSink = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let otherToken = other.subscribe { value in
      if value == 1, block.take() {
        inSink.signal()
        release.wait()
      }
    }
    let pause = OneShot()
    let paused = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    let value = Property<Int> {
      guard flag.value else { return -1 }
      let read = other.value
      if pause.take() {
        paused.signal()
        resume.wait()
      }
      return read
    }
    let seen = Recorder<Int>()
    let token = value.subscribe(seen.sink)

    // Thread T delivers other = 1 and stays in its sink: other's domain is busy.
    block.arm()
    let otherDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      other.accept(1)
      otherDone.signal()
    }
    inSink.wait()
    // Thread A delivers flag = true; the computation reads other (1) and pauses.
    pause.arm()
    let flagDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      flag.accept(true)
      flagDone.signal()
    }
    paused.wait()
    other.accept(2)  // queued for T
    resume.signal()
    flagDone.wait()
    release.signal()
    otherDone.wait()
    #expect(value.value == 2)
    #expect(seen.last == value.value)  // a subscriber ends with the property's value
    token.cancel()
    otherToken.cancel()
  }

  /// A delivery computes the property twice when it reads a new dependency that changes later
  /// in the same event: the first run reads the dependency's old value and stages a result;
  /// the second computes a value equal to the delivered one, which the cut-off drops, and the
  /// staged result of the first run is committed.
  @Test func aRecomputationInTheSameEventThatEqualsTheDeliveredValueIsNotLost() {
    let flag = BehaviorRelay(false)
    let mid = Property { flag.value }
    let deep = Property { mid.value ? 5 : 100 }  // 100 until flag is true, then 5
    let value = Property<Int> { flag.value ? deep.value : 5 }
    let seen = Recorder<Int>()
    let token = value.subscribe(seen.sink)
    flag.accept(true)
    #expect(deep.value == 5)
    #expect(value.value == 5)
    #expect(seen.values == [5])  // the value never changed
    token.cancel()
  }
}
