import Foundation
import Synchronization

@testable import InvalidatingCore

/// Runs `body(index)` on `count` threads of their own, released together, and waits for them.
///
/// - Returns: Whether every thread finished within `timeout` seconds: `false` means a
///   deadlock (or a livelock), which the caller reports. The wait only detects failure; it
///   never orders anything.
func runConcurrently(
  threads count: Int, timeout: Double = 120, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
  let arrived = Counter()
  let finished = DispatchSemaphore(value: 0)
  for index in 0..<count {
    let thread = Thread {
      // Start together, to collide as much as possible.
      arrived.increment()
      while arrived.value < count {}
      body(index)
      finished.signal()
    }
    thread.start()
  }
  let deadline = DispatchTime.now() + timeout
  for _ in 0..<count where finished.wait(timeout: deadline) == .timedOut { return false }
  return true
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let storage = Atomic<Int>(0)

  var value: Int { storage.load(ordering: .acquiring) }

  func increment() { storage.add(1, ordering: .acquiringAndReleasing) }
}

/// Watches one sink: that it never runs concurrently with itself, what it saw last, and
/// whether it ran after it was cancelled from a delivering thread.
final class Probe: Sendable {
  private let running = Atomic<Bool>(false)
  private let overlapCount = Atomic<Int>(0)
  private let lateCount = Atomic<Int>(0)
  private let outOfOrderCount = Atomic<Int>(0)
  private let callCount = Atomic<Int>(0)
  private let cancelled = Atomic<Bool>(false)
  private let lastValue = Mutex<Int?>(nil)
  /// Checks each value against the previous one (for sinks fed by a single ordered writer).
  private let isInOrder: (@Sendable (_ previous: Int, _ next: Int) -> Bool)?

  init(isInOrder: (@Sendable (_ previous: Int, _ next: Int) -> Bool)? = nil) {
    self.isInOrder = isInOrder
  }

  /// How many times the sink started while a previous call of it was still running.
  var overlaps: Int { overlapCount.load(ordering: .acquiring) }
  /// How many times it ran after `markCancelled()`.
  var lateCalls: Int { lateCount.load(ordering: .acquiring) }
  /// How many values broke `isInOrder`.
  var outOfOrder: Int { outOfOrderCount.load(ordering: .acquiring) }
  var calls: Int { callCount.load(ordering: .acquiring) }
  var last: Int? { lastValue.withLock { $0 } }

  /// Records that the subscription was cancelled on the thread delivering it: the contract
  /// says the sink is not called again, not even later in the same delivery.
  func markCancelled() { cancelled.store(true, ordering: .releasing) }

  /// Call at the start of the sink; `then` runs as the sink's body.
  func enter(_ value: Int, then body: () -> Void = {}) {
    if !running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
      .exchanged
    {
      overlapCount.add(1, ordering: .relaxed)
    }
    callCount.add(1, ordering: .relaxed)
    if cancelled.load(ordering: .acquiring) { lateCount.add(1, ordering: .relaxed) }
    lastValue.withLock { last in
      if let previous = last, let isInOrder, !isInOrder(previous, value) {
        outOfOrderCount.add(1, ordering: .relaxed)
      }
      last = value
    }
    body()
    running.store(false, ordering: .releasing)
  }

  /// A sink that only records.
  var sink: @Sendable (Int) -> Void { { value in self.enter(value) } }
}

/// Encodes two small values as one `Int`, to keep every node an `Int` node.
func encodePair(_ first: Int, _ second: Int) -> Int { first * 1_000_000 + second }

/// The two values `encodePair` encoded.
func decodePair(_ value: Int) -> (Int, Int) { (value / 1_000_000, value % 1_000_000) }

/// A node pairing two `Int` nodes: the stand-in for `combineLatest`.
func pairNode(_ first: ValueNode<Int>, _ second: ValueNode<Int>) -> DerivedNode<Int> {
  DerivedNode(inputs: [first, second]) { mode, _ in
    encodePair(first.read(mode), second.read(mode))
  }
}

/// A node transforming one `Int` node: the stand-in for `map`.
func mapNode(_ input: ValueNode<Int>, _ transform: @escaping @Sendable (Int) -> Int)
  -> DerivedNode<Int>
{
  DerivedNode(inputs: [input]) { mode, _ in transform(input.read(mode)) }
}

/// A node holding back repeated values: the stand-in for `removeDuplicates`.
func removeDuplicatesNode(_ input: ValueNode<Int>) -> DerivedNode<Int> {
  DerivedNode(inputs: [input]) { mode, previous in
    let value = input.read(mode)
    return value == previous ? nil : value
  }
}

/// A small seeded generator for one thread's choices.
struct ThreadRandom {
  private var generator: SplitMix64

  init(seed: Int) { generator = SplitMix64(seed: 0xC0FF_EE00 &+ UInt64(seed)) }

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
}

extension ValueNode {
  /// Subscribes with the current value first, as `Property.subscribe` does.
  func subscribe(_ sink: @escaping @Sendable (Value) -> Void) -> SubscriptionToken {
    subscribe(emitsCurrentValue: true, sink)
  }
}
