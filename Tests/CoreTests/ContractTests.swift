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
    let seenDirectly = Recorder<Int>()
    let token = doubled.subscribe(seen.sink)
    let direct = source.subscribe(seenDirectly.sink)
    source.write(5)
    // Every affected sink has run before write returns, and reads see the new value.
    #expect(seen.values == [0, 10])
    #expect(seenDirectly.values == [0, 5])
    #expect(source.currentValue() == 5)
    #expect(doubled.currentValue() == 10)
    token.cancel()
    direct.cancel()
  }

  @Test("Rule 2: batching delivers once, with the latest value, after the outermost batch")
  func rule2Batching() throws {
    let source = SourceNode(0)
    let doubled = derive(source) { $0 * 2 }
    let seen = Recorder<Int>()
    let token = doubled.subscribe(seen.sink)
    let result = batch {
      source.write(1)
      // Writes take effect at once, for sources and derived values alike.
      #expect(source.currentValue() == 1)
      #expect(doubled.currentValue() == 2)
      batch {
        source.write(2)
        source.write(3)
      }
      // The inner batch ended, but the outer one holds notifications back.
      #expect(seen.values == [0])
      return "body result"
    }
    #expect(result == "body result")
    #expect(seen.values == [0, 6])

    struct Failure: Error {}
    #expect(throws: Failure.self) {
      try batch {
        source.write(4)
        throw Failure()
      }
    }
    // Changes made before the throw are still delivered.
    #expect(seen.values == [0, 6, 8])
    token.cancel()
  }

  @Test("Rule 2: each invalidator runs at most once per batch, per target")
  func rule2InvalidationsDeduplicated() {
    let canvas = Canvas()
    batch {
      for _ in 0..<1_000 {
        canvas.invalidate(by: Layout()) { canvas.log.append("layout") }
        canvas.invalidate(by: Region(name: "a")) { canvas.log.append("a") }
        canvas.invalidate(by: Region(name: "b")) { canvas.log.append("b") }
      }
      #expect(canvas.log.isEmpty)
    }
    #expect(canvas.log == ["layout", "a", "b"])
    // Outside a batch an invalidation runs at once, every time.
    canvas.invalidate(by: Layout()) { canvas.log.append("layout") }
    canvas.invalidate(by: Layout()) { canvas.log.append("layout") }
    #expect(canvas.log == ["layout", "a", "b", "layout", "layout"])
  }

  @Test("Rule 2: a batch on one thread neither holds back nor blocks writes from another")
  func rule2BatchIsPerThread() async {
    let source = SourceNode(0)
    let seen = Recorder<Int>()
    let token = source.subscribe(seen.sink)
    let insideBatch = DispatchSemaphore(value: 0)
    let otherWriterDone = DispatchSemaphore(value: 0)
    let observedInBatch = Mutex<[Int]>([])
    let batchThread = Thread {
      batch {
        source.write(1)
        insideBatch.signal()
        // Wait (bounded) for the other thread's write to be delivered while we are batching.
        let finished = otherWriterDone.wait(timeout: .now() + 20) == .success
        observedInBatch.withLock { $0 = finished ? seen.values : [-1] }
      }
    }
    batchThread.start()
    insideBatch.wait()
    source.write(2)  // another thread: delivered at once, not held back by the batch
    otherWriterDone.signal()
    while seen.count < 3 { await Task.yield() }
    #expect(observedInBatch.withLock { $0 } == [0, 2])
    // When the batch ends it delivers the latest value.
    #expect(seen.values == [0, 2, 2])
    token.cancel()
  }

  @Test("Rule 3: glitch-free diamond: one call per write, never a torn pair")
  func rule3GlitchFree() {
    let a = SourceNode(1)
    let b = derive(a) { $0 * 10 }
    let c = derive(a) { $0 * 100 }
    let computations = Mutex(0)
    let d = DerivedNode<(Int, Int)>(inputs: [b, c]) { mode, _ in
      computations.withLock { $0 += 1 }
      return (b.read(mode), c.read(mode))
    }
    let seen = Recorder<[Int]>()
    let token = d.subscribe { seen.record([$0.0, $0.1]) }
    computations.withLock { $0 = 0 }
    for value in 2...50 { a.write(value) }
    let expected = (1...50).map { [$0 * 10, $0 * 100] }
    #expect(seen.values == expected)
    // d is recomputed once per change of a, never for a half-updated pair.
    #expect(computations.withLock { $0 } == 49)
    token.cancel()
  }

  @Test("Rule 4: a sink's write is queued and delivered after the current delivery")
  func rule4Reentrancy() {
    let source = SourceNode(0)
    let first = Recorder<Int>()
    let later = Recorder<Int>()
    let depth = Mutex(0)
    let maxDepth = Mutex(0)
    let writer = source.subscribe { value in
      let current = depth.withLock {
        $0 += 1
        return $0
      }
      maxDepth.withLock { $0 = max($0, current) }
      first.record(value)
      if value == 1 {
        source.write(2)
        // The write is visible at once, though not yet delivered.
        #expect(source.currentValue() == 2)
      }
      depth.withLock { $0 -= 1 }
    }
    let observer = source.subscribe(later.sink)
    source.write(1)
    #expect(first.values == [0, 1, 2])
    #expect(later.values == [0, 1, 2])  // not [0, 2, 1]
    #expect(maxDepth.withLock { $0 } == 1)  // nothing delivered nested
    writer.cancel()
    observer.cancel()
  }

  @Test("Rule 4: the stack does not grow with the number of re-entrant writes")
  func rule4NoStackGrowth() {
    let source = SourceNode(0)
    let seen = Recorder<Int>()
    let chain = source.subscribe { value in
      if value < 50_000 { source.write(value + 1) }
    }
    let observer = source.subscribe(seen.sink)
    source.write(1)
    // 50,000 nested calls would overflow a thread's stack; queued delivery does not.
    #expect(seen.count == 50_001)
    #expect(seen.last == 50_000)
    chain.cancel()
    observer.cancel()
  }

  @Test("Rule 5: 8 threads x 10,000 writes: no sink runs concurrently with itself, all settle")
  func rule5Threads() async {
    let source = SourceNode(0)
    let mapped = derive(source) { $0 &* 3 }
    let running = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)
    let lastSource = Mutex(0)
    let lastMapped = Mutex(0)
    let t1 = source.subscribe { value in
      if running.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
      lastSource.withLock { $0 = value }
      running.store(false, ordering: .releasing)
    }
    let t2 = mapped.subscribe { value in lastMapped.withLock { $0 = value } }
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for index in 0..<10_000 { source.write(thread * 10_000 + index) }
        }
      }
    }
    // A final write from one thread, after all writers stopped, settles every sink on it.
    source.write(-1)
    #expect(overlaps.load(ordering: .relaxed) == 0)
    #expect(lastSource.withLock { $0 } == -1)
    #expect(lastMapped.withLock { $0 } == -3)
    #expect(source.currentValue() == -1)
    t1.cancel()
    t2.cancel()
  }

  @Test("Rule 5: after concurrent writers stop, every sink has seen the final value")
  func rule5FinalValue() async {
    let source = SourceNode(0)
    let last = Mutex(-1)
    let token = source.subscribe { value in last.withLock { $0 = value } }
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for index in 0..<2_000 { source.write(thread * 2_000 + index) }
        }
      }
    }
    #expect(last.withLock { $0 } == source.currentValue())
    token.cancel()
  }

  @Test("Rule 5: unrelated sources never wait for each other")
  func rule5NoGlobalLock() {
    // A sink of `a` blocks until a write to the unrelated `b` has been delivered on another
    // thread. With any lock shared between the two, this would deadlock.
    let a = SourceNode(0)
    let b = SourceNode(0)
    let bDelivered = DispatchSemaphore(value: 0)
    let bSeen = Recorder<Int>()
    let bToken = b.subscribe { value in
      bSeen.record(value)
      if value == 1 { bDelivered.signal() }
    }
    let completed = Mutex(false)
    let aToken = a.subscribe { value in
      guard value == 1 else { return }
      Thread { b.write(1) }.start()
      let delivered = bDelivered.wait(timeout: .now() + 20) == .success
      completed.withLock { $0 = delivered }
    }
    a.write(1)
    #expect(completed.withLock { $0 })
    #expect(bSeen.values == [0, 1])
    aToken.cancel()
    bToken.cancel()
  }

  @Test("Rule 6: sinks run in subscription order; invalidations in request order")
  func rule6Order() {
    let source = SourceNode(0)
    let log = Recorder<String>()
    let tokens = (0..<5).map { index in
      source.subscribe(emitsCurrentValue: false) { value in log.record("\(index):\(value)") }
    }
    source.write(7)
    #expect(log.values == ["0:7", "1:7", "2:7", "3:7", "4:7"])
    let canvas = Canvas()
    batch {
      canvas.invalidate(by: Region(name: "display")) { canvas.log.append("display") }
      canvas.invalidate(by: Layout()) { canvas.log.append("layout") }
      canvas.invalidate(by: Region(name: "display")) { canvas.log.append("display again") }
      canvas.invalidate(by: Region(name: "size")) { canvas.log.append("size") }
    }
    #expect(canvas.log == ["display", "layout", "size"])
    for token in tokens { token.cancel() }
  }

  @Test("Rule 7: a subscription ends when cancelled or released")
  func rule7Subscriptions() {
    let source = SourceNode(0)
    let cancelled = Recorder<Int>()
    let released = Recorder<Int>()
    let token = source.subscribe(cancelled.sink)
    var transient: SubscriptionToken? = source.subscribe(released.sink)
    source.write(1)
    token.cancel()
    transient = nil
    source.write(2)
    #expect(cancelled.values == [0, 1])
    #expect(released.values == [0, 1])
    #expect(transient == nil)
  }

  @Test("Rule 7: a derived value nobody holds stops being computed and is freed")
  func rule7DerivedLifetime() {
    let source = SourceNode(0)
    let computations = Mutex(0)
    var property: Property<Int>? = Property(
      node: derive(source) { value in
        computations.withLock { $0 += 1 }
        return value + 1
      })
    let node = Weak(property?.node)
    source.write(1)
    #expect(computations.withLock { $0 } == 2)  // once at creation, once for the write
    property = nil
    source.write(2)
    #expect(computations.withLock { $0 } == 2)
    #expect(node.object == nil)
  }

  @Test("Rule 7: when its source is gone, a derived value completes and releases its sinks")
  func rule7Completion() {
    final class Captured: Sendable {}
    var source: SourceNode<Int>? = SourceNode(1)
    let doubled = derive(source!) { $0 * 2 }
    var captured: Captured? = Captured()
    let capturedRef = Weak(captured)
    let completions = Mutex(0)
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
