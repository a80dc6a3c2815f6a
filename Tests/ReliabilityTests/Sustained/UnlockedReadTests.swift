import Foundation
import Invalidating
import InvalidatingTestSupport
import Synchronization
import Testing

/// A relay of a plain one-word value (`Int`, `Double`, `Bool`, a small enum) is read without
/// its lock (issue 30, point 4): every write stores the word with release ordering, under the
/// lock, and a read is one acquire load. These threads read what they and the others write,
/// under writers that never pause, and check what the lock used to guarantee: a read returns
/// one whole write, never an older value than one the thread saw or wrote before, and what a
/// writer wrote before a write the reader sees.
@Suite("Sustained load: relays of one-word values read without the lock")
struct UnlockedReadTests {
  static let threads = 4
  static var rounds: Int { Sustained.isUnderThreadSanitizer ? 2_000 : 20_000 }

  /// A value of one word of each width the unlocked read handles, made from a round number so
  /// that every write is told apart, and compared in the order of the rounds.
  protocol Word: Sendable {
    /// The highest round the type holds: the rounds of a narrow word stop there.
    static var lastRound: Int { get }
    init(round: Int)
    var round: Int { get }
  }

  /// Four threads each write their own relay with rounds that only grow, and after each write
  /// read all four. Each read must be a value some thread wrote (whole), its own relay must
  /// hold its own write, and no relay may go back below what the thread read of it before.
  func readersSeeWholeOrderedWrites<Value: Word>(_: Value.Type) {
    let rounds = min(Self.rounds, Value.lastRound)
    let relays = (0..<Self.threads).map { _ in BehaviorRelay(Value(round: 0)) }
    let defects = Atomic<Int>(0)
    let example = Mutex<String?>(nil)
    let finished = runConcurrently(threads: Self.threads, timeout: 120 * Sustained.slowdown) {
      index in
      var seen = [Int](repeating: 0, count: Self.threads)
      func report(_ text: @autoclosure () -> String) {
        defects.add(1, ordering: .relaxed)
        example.withLock { $0 = $0 ?? text() }
      }
      for round in 1...rounds {
        relays[index].accept(Value(round: round))
        for other in 0..<Self.threads {
          let read = relays[other].value.round
          if read < 0 || read > rounds {
            report("thread \(index) read \(read) from relay \(other): never written")
          } else if other == index && read != round {
            report("thread \(index) wrote \(round), read \(read)")
          } else if read < seen[other] {
            report("thread \(index) read relay \(other) at \(read) after \(seen[other])")
          }
          seen[other] = max(seen[other], read)
        }
      }
    }
    #expect(finished)
    #expect(
      defects.load(ordering: .relaxed) == 0,
      "\(defects.load(ordering: .relaxed)) wrong reads; first: \(example.withLock { $0 ?? "" })")
    #expect(relays.map(\.value.round) == Array(repeating: rounds, count: Self.threads))
  }

  @Test("Int relays, read by four writing threads")
  func intWords() { readersSeeWholeOrderedWrites(Int.self) }

  @Test("Double relays, read by four writing threads")
  func doubleWords() { readersSeeWholeOrderedWrites(Double.self) }

  @Test("Int32 relays, read by four writing threads")
  func int32Words() { readersSeeWholeOrderedWrites(Int32.self) }

  @Test("UInt16 relays, read by four writing threads")
  func uint16Words() { readersSeeWholeOrderedWrites(UInt16.self) }

  @Test("One-byte enum relays, read by four writing threads")
  func byteWords() { readersSeeWholeOrderedWrites(ByteWord.self) }

  /// A writer writes `data` and then `flag`, each round; a reader that sees a round in `flag`
  /// must see that round or a later one in `data`. The lock gave that order (the writer's
  /// unlock after `data` came before its lock for `flag`); the unlocked read must keep it.
  @Test("A reader that sees a write sees what its writer wrote before it")
  func aReadSeesWhatTheWriterWroteBefore() {
    let data = BehaviorRelay(0)
    let flag = BehaviorRelay(0)
    let behind = Atomic<Int>(0)
    let example = Mutex<String?>(nil)
    let finished = runConcurrently(threads: 2, timeout: 120 * Sustained.slowdown) { index in
      if index == 0 {
        for round in 1...Self.rounds * 4 {
          data.accept(round)
          flag.accept(round)
        }
      } else {
        var last = 0
        while last < Self.rounds * 4 {
          let seen = flag.value
          let read = data.value
          if read < seen {
            behind.add(1, ordering: .relaxed)
            example.withLock { $0 = $0 ?? "flag \(seen), data \(read)" }
          }
          last = seen
        }
      }
    }
    #expect(finished)
    #expect(
      behind.load(ordering: .relaxed) == 0,
      "\(behind.load(ordering: .relaxed)) reads behind; first: \(example.withLock { $0 ?? "" })")
  }

  /// Store buffering: each of two threads writes its own relay, then reads the other's. Two
  /// locked reads forbid both reading the value from before the round (the lock orders the two
  /// writes and the two reads); an acquire load (`LDAPR` on Apple silicon, RCpc) may be
  /// satisfied before the thread's own earlier store-release, which allows it. x86 (the
  /// unlock's `xchg` is a full barrier) and ARM64 without RCpc (`STLR` then `LDAR`) cannot
  /// show it; an Apple silicon Mac could, before the loads were made sequentially consistent.
  @Test("Two threads that each write one relay and read the other never both read the old")
  func noStoreBuffering() {
    final class Shared: Sendable {
      let arrived0 = Atomic<Int>(0)
      let arrived1 = Atomic<Int>(0)
      let read0 = Atomic<Int>(0)
      let read1 = Atomic<Int>(0)
      func arrive(_ index: Int, _ phase: Int) {
        if index == 0 {
          arrived0.store(phase, ordering: .sequentiallyConsistent)
        } else {
          arrived1.store(phase, ordering: .sequentiallyConsistent)
        }
      }
      func phase(_ index: Int) -> Int {
        index == 0
          ? arrived0.load(ordering: .sequentiallyConsistent)
          : arrived1.load(ordering: .sequentiallyConsistent)
      }
      func noteRead(_ index: Int, _ value: Int) {
        if index == 0 {
          read0.store(value, ordering: .sequentiallyConsistent)
        } else {
          read1.store(value, ordering: .sequentiallyConsistent)
        }
      }
    }
    let rounds = Self.rounds
    let x = BehaviorRelay(0)
    let y = BehaviorRelay(0)
    let shared = Shared()
    let both = Atomic<Int>(0)
    let finished = runConcurrently(threads: 2, timeout: 120 * Sustained.slowdown) { index in
      let mine = index == 0 ? x : y
      let theirs = index == 0 ? y : x
      // A barrier: each thread's phase only grows, and it waits for the other's.
      func meet(_ phase: Int) {
        shared.arrive(index, phase)
        while shared.phase(1 - index) < phase {}
      }
      for round in 1...rounds {
        meet(3 * round)  // both threads start the round together, so that the writes meet
        mine.accept(round)
        shared.noteRead(index, theirs.value)
        meet(3 * round + 1)
        if index == 0 && shared.read0.load(ordering: .sequentiallyConsistent) < round
          && shared.read1.load(ordering: .sequentiallyConsistent) < round
        {
          both.add(1, ordering: .relaxed)
        }
        meet(3 * round + 2)
      }
    }
    #expect(finished)
    #expect(both.load(ordering: .relaxed) == 0, "rounds where both threads read the old value")
  }

  /// Inside a batch, the writing thread reads its write at once, and another thread reads it
  /// too (a relay's value is its newest write, delivered or not: rule 3), while a subscriber
  /// has it only once the batch ends.
  @Test("A write inside a batch is read at once, by the writer and by another thread")
  func aWriteInABatchIsReadAtOnce() {
    let relay = BehaviorRelay(1)
    let delivered = Mutex<[Int]>([])
    let token = relay.subscribe { value in delivered.withLock { $0.append(value) } }
    let readByAnother = Mutex(0)
    batch {
      relay.accept(2)
      #expect(relay.value == 2)
      let done = DispatchSemaphore(value: 0)
      Thread {
        readByAnother.withLock { $0 = relay.value }
        done.signal()
      }.start()
      done.wait()
      #expect(delivered.withLock { $0 } == [1])
    }
    #expect(readByAnother.withLock { $0 } == 2)
    #expect(delivered.withLock { $0 } == [1, 2])
    token.cancel()
  }
}

extension Int: UnlockedReadTests.Word {
  static var lastRound: Int { .max }
  init(round: Int) { self = round }
  var round: Int { self }
}

/// A one-byte word, as a small enum is stored: its rounds stop at 255.
struct ByteWord: UnlockedReadTests.Word {
  let byte: UInt8
  static var lastRound: Int { Int(UInt8.max) }
  init(round: Int) { byte = UInt8(round) }
  var round: Int { Int(byte) }
}

extension Double: UnlockedReadTests.Word {
  static var lastRound: Int { .max }
  init(round: Int) { self = Double(round) }
  var round: Int { Int(self) }
}

extension Int32: UnlockedReadTests.Word {
  static var lastRound: Int { Int(Int32.max) }
  init(round: Int) { self = Int32(round) }
  var round: Int { Int(self) }
}

extension UInt16: UnlockedReadTests.Word {
  static var lastRound: Int { Int(UInt16.max) }
  init(round: Int) { self = UInt16(round) }
  var round: Int { Int(self) }
}
