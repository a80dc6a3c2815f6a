import Foundation
import Invalidating
import InvalidatingTestSupport
import Testing

/// Releasing a deep chain takes constant stack, whatever the kind of node (rule 9): the last
/// reference to the end of a chain frees it link by link from a loop, never by recursing.
///
/// Before the fix a chain of computed properties overflowed a 512 KiB stack (Apple's
/// secondary-thread size) at 2,000 links, and the main thread's 8 MiB at 30,000: each
/// computation captures the property before it, and freeing a node freed its closure's context,
/// which freed the previous node, about eleven frames a link. Each kind runs in a child process,
/// since the failure is a crash.
@Suite("Sustained load: deep chains of every kind are released in constant stack")
struct DeepReleaseTests {
  enum Kind: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case computed, map, combineLatest, removeDuplicates, filter, flatMapLatest, signalMap
    case computedOverMap
    var testDescription: String { rawValue }
  }

  static var links: Int { Sustained.isUnderThreadSanitizer ? 4_000 : 10_000 }

  @Test("10,000 links on a thread with a 512 KiB stack", arguments: Kind.allCases)
  func releaseOnASmallStack(kind: Kind) async {
    await #expect(processExitsWith: .success) { [kind] in
      let finished = Sustained.onThread(stackSize: 512 * 1024, timeout: 120) {
        let correct = DeepReleaseTests.buildUseAndRelease(kind, links: DeepReleaseTests.links)
        if !correct { exit(1) }
      }
      if !finished { exit(2) }
    }
  }

  /// Builds a chain of `links` nodes of `kind` on a relay, checks that a write reaches its end,
  /// and releases it; returns whether the end saw the write.
  static func buildUseAndRelease(_ kind: Kind, links: Int) -> Bool {
    let relay = BehaviorRelay(0)
    if kind == .signalMap {
      let events = PublishRelay<Int>()
      var signal = events.asSignal()
      for _ in 0..<links { signal = signal.map { $0 + 1 } }
      let seen = Recorder<Int>()
      let token = signal.subscribe(seen.sink)
      events.accept(0)
      token.cancel()
      return seen.values == [links]
    }
    var tail = relay.asProperty()
    for _ in 0..<links {
      let previous = tail
      switch kind {
      case .computed: tail = Property { previous.value + 1 }
      case .computedOverMap: tail = Property { previous.value + 1 }.map { $0 }
      case .map: tail = previous.map { $0 + 1 }
      case .combineLatest:
        tail = Property.combineLatest(previous, previous).map { $0.0 + 1 }
      case .removeDuplicates: tail = previous.map { $0 + 1 }.removeDuplicates()
      case .filter: tail = previous.map { $0 + 1 }.filter(initial: 0) { _ in true }
      case .flatMapLatest: tail = previous.flatMapLatest { value in Property(value: value + 1) }
      case .signalMap: break
      }
    }
    let seen = Recorder<Int>()
    let token = tail.subscribe(seen.sink)
    relay.accept(1)
    token.cancel()
    let expected =
      kind == .computedOverMap || kind == .removeDuplicates || kind == .filter
      ? nil : links + 1
    let last = seen.last
    tail = relay.asProperty()  // the chain's last reference goes here
    if let expected { return last == expected }
    return last != nil
  }
}
