import Foundation
import InvalidatingTestSupport
import Synchronization
import Testing

@testable import InvalidatingCore

/// Rule 5 under load: writes, batches, subscriptions, cancellations and graph changes from eight
/// threads at once. Each test is bounded in work; a deadlock shows as a thread that does not
/// finish within the timeout. They also run under ThreadSanitizer:
/// `swift test --sanitize=thread --filter ReliabilityTests`.
@Suite("Concurrency stress")
struct ConcurrencyStressTests {
  static let threads = 8
  static let writesPerThread = 2_000

  @Test(
    "Writers on eight threads, to shared and to unrelated sources, end every sink on the final value"
  )
  func writersOnEightThreads() {
    let count = Self.writesPerThread
    let shared = (0..<3).map { _ in SourceNode(0) }
    let sharedPair = pairNode(shared[0], shared[1])
    let doubled = mapNode(shared[2]) { $0 * 2 }
    let deduplicated = removeDuplicatesNode(doubled)
    let diamond = pairNode(mapNode(shared[0]) { $0 + 1 }, mapNode(shared[0]) { $0 + 2 })
    // Each thread's own source, written in increasing order: its sinks must see it in order.
    let owned = (0..<Self.threads).map { _ in SourceNode(0) }
    let ownedMaps = owned.map { mapNode($0) { $0 * 3 } }
    // A batch writes the value the plain write before it wrote: never smaller.
    let neverDecreasing: @Sendable (Int, Int) -> Bool = { $0 <= $1 }
    let diamondIsConsistent: @Sendable (Int, Int) -> Bool = { _, next in
      let (first, second) = decodePair(next)
      return second == first + 1
    }

    let nodes: [ValueNode<Int>] = shared + [sharedPair, doubled, deduplicated]
    let probes = nodes.map { _ in Probe() }
    let diamondProbe = Probe(isInOrder: diamondIsConsistent)
    let ownedProbes = owned.map { _ in Probe(isInOrder: neverDecreasing) }
    let ownedMapProbes = owned.map { _ in Probe(isInOrder: neverDecreasing) }
    var tokens: [SubscriptionToken] = []
    for (node, probe) in zip(nodes, probes) { tokens.append(node.subscribe(probe.sink)) }
    tokens.append(diamond.subscribe(diamondProbe.sink))
    for index in owned.indices {
      tokens.append(owned[index].subscribe(emitsCurrentValue: false, ownedProbes[index].sink))
      tokens.append(
        ownedMaps[index].subscribe(emitsCurrentValue: false, ownedMapProbes[index].sink))
    }

    let finished = runConcurrently(threads: Self.threads) { thread in
      var random = ThreadRandom(seed: thread)
      for step in 1...count {
        shared[random.int(0...2)].write(thread * count + step)
        owned[thread].write(step)
        if step % 50 == 0 {
          batch {
            shared[0].write(step)
            shared[1].write(-step)
            owned[thread].write(step)
          }
        }
      }
    }

    #expect(finished, "a writer did not finish: deadlock")
    for (node, probe) in zip(nodes, probes) {
      #expect(probe.overlaps == 0)
      #expect(probe.last == node.currentValue())
    }
    #expect(
      sharedPair.currentValue()
        == encodePair(shared[0].currentValue(), shared[1].currentValue()))
    #expect(doubled.currentValue() == shared[2].currentValue() * 2)
    #expect(deduplicated.currentValue() == doubled.currentValue())
    #expect(diamondProbe.overlaps == 0)
    #expect(diamondProbe.outOfOrder == 0, "the diamond delivered an inconsistent pair")
    #expect(diamondProbe.last == diamond.currentValue())
    for index in owned.indices {
      #expect(ownedProbes[index].overlaps == 0)
      #expect(ownedProbes[index].outOfOrder == 0)
      #expect(ownedProbes[index].last == count)
      #expect(ownedMapProbes[index].outOfOrder == 0)
      #expect(ownedMapProbes[index].last == count * 3)
    }
    for token in tokens { token.cancel() }
  }

  @Test("Sinks cancelling themselves and each other during delivery, while eight threads write")
  func cancellingDuringDelivery() {
    let count = Self.writesPerThread
    let source = SourceNode(0)
    let derived = mapNode(source) { $0 + 1 }
    let sinkCount = 48
    let probes = (0..<sinkCount).map { _ in Probe() }
    let tokens = Guarded<[SubscriptionToken?]>(Array(repeating: nil, count: sinkCount))
    /// Cancels sink `index` from inside a delivery and records it, so a later call is caught.
    @Sendable func cancelFromSink(_ index: Int) {
      guard let token = tokens.withLock({ $0[index].take() }) else { return }
      token.cancel()
      probes[index].markCancelled()
    }
    for index in 0..<sinkCount {
      let node = index.isMultiple(of: 2) ? source : derived
      let token = node.subscribe(emitsCurrentValue: false) { value in
        probes[index].enter(value) {
          // About one value in 400 makes a sink cancel itself, one in 400 the next one.
          if (value &+ index * 7) % 400 == 0 { cancelFromSink(index) }
          if (value &+ index * 13) % 400 == 1 { cancelFromSink((index + 2) % sinkCount) }
        }
      }
      tokens.withLock { $0[index] = token }
    }
    // Subscribers that come and go from other threads meanwhile: a probe per subscription,
    // since two subscriptions are two sinks, which may run at once (a sink never runs
    // concurrently with itself). One probe per thread was not enough: a subscription
    // cancelled from its thread while another thread delivers may still run once (as
    // `SubscriptionToken` documents), at the same time as the thread's next subscription's
    // first value.
    let churns = (0..<Self.threads).map { _ in Guarded<[Probe]>([]) }

    let finished = runConcurrently(threads: Self.threads) { thread in
      for step in 1...count {
        source.write(thread * count + step)
        if step % 20 == 0 {
          let node = thread.isMultiple(of: 2) ? source : derived
          let probe = Probe()
          let token = node.subscribe(probe.sink)
          token.cancel()
          churns[thread].withLock { $0.append(probe) }
        }
      }
    }

    #expect(finished, "a writer did not finish: deadlock")
    let final = source.currentValue()
    var survivors = 0
    for index in 0..<sinkCount {
      #expect(probes[index].overlaps == 0)
      #expect(probes[index].lateCalls == 0, "sink \(index) ran after it was cancelled")
      if tokens.withLock({ $0[index] }) != nil {
        survivors += 1
        #expect(probes[index].last == (index.isMultiple(of: 2) ? final : final + 1))
      }
    }
    #expect(churns.allSatisfy { $0.withLock { $0.allSatisfy { $0.overlaps == 0 } } })
    #expect(survivors < sinkCount, "no sink cancelled itself: the test lost its point")
    // Cancelled outside the test's lock, an engine `Lock` (see `Guarded`): the engine's
    // guards stop any engine work done while a thread holds one.
    for token in tokens.withLock({ $0 }) { token?.cancel() }
  }

  @Test("Derived nodes created, merged and released on several threads while others write")
  func derivedNodesComeAndGo() {
    let count = Self.writesPerThread
    let writers = 4
    // One source per writer thread, written 1, 2, 3, ...: a pair of two of them must see each
    // component only grow, however the domains were merged under it.
    let sources = (0..<writers).map { _ in SourceNode(0) }
    let componentsGrow: @Sendable (Int, Int) -> Bool = { previous, next in
      let (a, b) = decodePair(previous)
      let (c, d) = decodePair(next)
      return c >= a && d >= b
    }
    let kept = Guarded<[(node: Property<Int>, probe: Probe, token: SubscriptionToken)]>([])
    let released = Guarded<[Weak<ValueNode<Int>>]>([])
    let disorder = Counter()
    let overlaps = Counter()

    let finished = runConcurrently(threads: writers * 2) { thread in
      if thread < writers {
        for step in 1...count { sources[thread].write(step) }
        return
      }
      var random = ThreadRandom(seed: thread)
      for round in 0..<count / 20 {
        let first = random.int(0...writers - 1)
        let second = (first + random.int(1...writers - 1)) % writers
        // Merges two domains, each being written on another thread. Properties hold the
        // nodes, as every public operator does.
        let node = Property(node: pairNode(sources[first], sources[second]))
        let probe = Probe(isInOrder: componentsGrow)
        let token = node.node.subscribe(probe.sink)
        let chained = Property(node: mapNode(node.node) { $0 + 1 })
        if round % 25 == 0 {
          kept.withLock { $0.append((node, probe, token)) }
          continue
        }
        token.cancel()
        if probe.outOfOrder > 0 { disorder.increment() }
        if probe.overlaps > 0 { overlaps.increment() }
        released.withLock { $0.append(Weak(node.node)) }
        released.withLock { $0.append(Weak(chained.node)) }
      }
    }

    #expect(finished, "a thread did not finish: deadlock")
    #expect(disorder.value == 0, "a pair saw a source go backwards")
    #expect(overlaps.value == 0)
    #expect(sources.allSatisfy { $0.currentValue() == count })
    // Read outside the test's lock (see above): a read that pulls checks that no lock is held.
    let keptNow = kept.withLock { $0 }
    #expect(keptNow.count == writers * (count / 20 / 25))
    for (node, probe, token) in keptNow {
      #expect(probe.overlaps == 0)
      #expect(probe.outOfOrder == 0)
      #expect(probe.last == encodePair(count, count))
      #expect(node.value == encodePair(count, count))
      token.cancel()
    }
    // Every released node left the graph once the deliveries that were under way ended.
    let leaked = released.withLock { $0.filter { $0.object != nil }.count }
    #expect(leaked == 0)
  }

  @Test("Batches from eight threads at once, over shared and own sources")
  func batchesFromEightThreads() {
    let count = Self.writesPerThread
    let sharedX = SourceNode(0)
    let sharedY = SourceNode(0)
    let sharedPair = pairNode(sharedX, sharedY)
    let sharedProbe = Probe()
    // Each thread's own pair, written together in every batch: its sink must only ever see
    // equal halves (the batch is one change), growing.
    let ownX = (0..<Self.threads).map { _ in SourceNode(0) }
    let ownY = (0..<Self.threads).map { _ in SourceNode(0) }
    let ownPairs = (0..<Self.threads).map { pairNode(ownX[$0], ownY[$0]) }
    let consistent: @Sendable (Int, Int) -> Bool = { previous, next in
      let (x, y) = decodePair(next)
      return x == y && next > previous
    }
    let ownProbes = (0..<Self.threads).map { _ in Probe(isInOrder: consistent) }
    var tokens = [sharedPair.subscribe(sharedProbe.sink)]
    for index in 0..<Self.threads {
      tokens.append(ownPairs[index].subscribe(emitsCurrentValue: false, ownProbes[index].sink))
    }
    let callsPerBatch = Counter()

    let finished = runConcurrently(threads: Self.threads) { thread in
      for step in 1...count {
        let before = ownProbes[thread].calls
        batch {
          ownX[thread].write(step)
          sharedX.write(thread * count + step)
          batch {
            ownY[thread].write(step)
            sharedY.write(thread * count + step)
          }
        }
        // Delivered once, and before the batch returned (no one else writes this pair).
        if ownProbes[thread].calls == before + 1 { callsPerBatch.increment() }
      }
    }

    #expect(finished, "a thread did not finish: deadlock")
    #expect(callsPerBatch.value == Self.threads * count)
    #expect(sharedProbe.overlaps == 0)
    #expect(sharedProbe.last == sharedPair.currentValue())
    #expect(sharedPair.currentValue() == encodePair(sharedX.currentValue(), sharedY.currentValue()))
    for index in 0..<Self.threads {
      #expect(ownProbes[index].overlaps == 0)
      #expect(ownProbes[index].outOfOrder == 0, "thread \(index)'s pair saw a half-done batch")
      #expect(ownProbes[index].last == encodePair(count, count))
    }
    for token in tokens { token.cancel() }
  }
}
