import Invalidating
import InvalidatingTestSupport
import Testing

@testable import InvalidatingCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A relay that was alone in its domain leaves the domain to its thread's next relay
/// (`SpareDomains`, issue 30): one allocation fewer per relay made and released. What must hold:
/// the next relay works in it as in a new one, no stamp of the domain's earlier life matches,
/// a thread keeps a bounded number, and they are freed when the thread exits.
@Suite("Spare domains: a lone relay's domain goes to the thread's next relay", .serialized)
struct SpareDomainTests {
  /// The domain of `relay`, watched weakly.
  final class WeakDomain {
    weak var domain: Domain?
    init(_ domain: Domain) { self.domain = domain }
  }

  @Test("A relay released alone leaves its domain to the next relay made on the thread")
  func nextRelayTakesTheDomain() {
    Domain.freeSpares()
    var first: BehaviorRelay<Int>? = BehaviorRelay(1)
    let watched = WeakDomain(first!.node.home)
    let writesBefore = first!.node.home.writeCount
    first!.accept(2)
    first = nil
    #expect(watched.domain != nil)
    #expect(Domain.spareCount == 1)

    let second = BehaviorRelay(10)
    #expect(second.node.home === watched.domain)
    #expect(Domain.spareCount == 0)
    // Its write count went on, one more: no stamp taken in the domain's first life (at most
    // the count after `accept(2)`) equals one of its second.
    #expect(second.node.home.writeCount == writesBefore + 2)
  }

  @Test("A relay in a reused domain writes, delivers and joins others as in a new one")
  func reusedDomainWorks() {
    Domain.freeSpares()
    do {
      let used = BehaviorRelay(0)
      let seen = Recorder<Int>()
      let token = used.subscribe(seen.sink)
      used.accept(1)
      token.cancel()
      #expect(seen.values == [0, 1])
    }
    #expect(Domain.spareCount == 1)

    let relay = BehaviorRelay(5)
    let other = BehaviorRelay(100)
    #expect(Domain.spareCount == 0)
    let seen = Recorder<Int>()
    let sum = Property.combineLatest(relay.asProperty(), other.asProperty()).map { $0 + $1 }
    let token = sum.subscribe(seen.sink)
    relay.accept(6)
    batch {
      relay.accept(7)
      other.accept(200)
      #expect(sum.value == 207)
    }
    #expect(seen.values == [105, 106, 207])
    #expect(relay.value == 7)
    token.cancel()
  }

  @Test("A domain that a derived node still uses is not kept")
  func sharedDomainIsNotKept() {
    Domain.freeSpares()
    var relay: BehaviorRelay<Int>? = BehaviorRelay(1)
    let doubled = relay!.map { $0 * 2 }
    relay = nil
    // The map holds the relay's node, so nothing was freed, and its domain stays in use.
    #expect(Domain.spareCount == 0)
    #expect(doubled.value == 2)
  }

  @Test("A thread keeps at most 32 spares, however many relays it releases")
  func sparesAreBounded() {
    Domain.freeSpares()
    var relays = (0..<100).map { BehaviorRelay($0) }
    let domains = relays.map { WeakDomain($0.node.home) }
    relays.removeAll()
    #expect(Domain.spareCount == SpareDomains.limit)
    #expect(domains.filter { $0.domain != nil }.count == SpareDomains.limit)
    Domain.freeSpares()
    #expect(domains.allSatisfy { $0.domain == nil })
  }

  #if canImport(Glibc)
    @Test("A thread's spares are freed when the thread exits")
    func sparesFreedAtThreadExit() {
      final class Box: @unchecked Sendable {
        // Safe: written by the thread before it exits, read after `pthread_join`.
        var watched: [WeakDomain] = []
        var sparesBeforeExit = 0
      }
      let box = Box()
      var thread = pthread_t()
      let started = pthread_create(
        &thread, nil,
        { argument in
          let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
          var relays = (0..<5).map { BehaviorRelay($0) }
          box.watched = relays.map { WeakDomain($0.node.home) }
          relays.removeAll()
          box.sparesBeforeExit = Domain.spareCount
          return nil
        }, Unmanaged.passRetained(box).toOpaque())
      #expect(started == 0)
      pthread_join(thread, nil)
      #expect(box.watched.count == 5)
      #expect(box.sparesBeforeExit == 5)
      // Kept as the thread's spares when the relays went; freed with the thread's context.
      #expect(box.watched.allSatisfy { $0.domain == nil })
    }
  #endif
}
