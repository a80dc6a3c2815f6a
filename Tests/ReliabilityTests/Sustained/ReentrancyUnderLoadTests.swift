import Foundation
import Invalidating
import Testing

/// Rule 9: only a real unbounded cascade of sink-caused writes trips the re-entrancy limit
/// (issue 13, defect 2). A sink that makes one corrective write per change it observes, while
/// two threads write non-stop, makes more than ``Engine/reentrancyLimit`` corrective writes in
/// all but never a cascade: the process must survive, every sink ending on a corrected value.
///
/// It used to stop the process after 0.4–0.8 s with "Runaway re-entrancy": the count of writes
/// made from sinks was reset only when the domain went idle, which two busy writers never let
/// it do. Each test runs in a child process, since the failure is a process stop.
///
/// Not run under ThreadSanitizer: exceeding the limit takes more than 10^5 corrective writes
/// whatever the build, about two minutes there; the plain run covers the counting, and the
/// stress tests cover re-entrant writes from several threads under the sanitizer.
@Suite(
  "Sustained load: corrective writes under busy writers are not runaway re-entrancy",
  .disabled(if: Sustained.isUnderThreadSanitizer, "10^5 corrective writes take minutes there"))
struct ReentrancyUnderLoadTests {
  @Test("A sink writing its own relay back to 0 above a limit, two threads writing non-stop")
  func correctiveWriteToTheObservedRelay() async {
    let start = Sustained.now()
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
    ) {
      let relay = BehaviorRelay(0)
      let corrections = Counter()
      let token = relay.subscribe { value in
        if value > 10 {
          corrections.increment()
          relay.accept(0)
        }
      }
      let target = Engine.reentrancyLimit + Engine.reentrancyLimit / 5
      let finished = runConcurrently(threads: 2, timeout: 240 * Sustained.slowdown) { thread in
        var step = thread
        while corrections.value < target && step < 10_000_000 {
          relay.accept(step % 20)
          step += 2
        }
      }
      print(
        "corrective writes: \(corrections.value), final value \(relay.value), finished \(finished)")
      // Every correction landed: the relay ends at or below the limit.
      if !finished || corrections.value < target || relay.value > 10 { exit(1) }
      token.cancel()
    }
    Self.report("own relay", result, since: start)
  }

  @Test("A sink writing a second relay merged into the same domain through combineLatest")
  func correctiveWriteToAMergedRelay() async {
    let start = Sustained.now()
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
    ) {
      let input = BehaviorRelay(0)
      let clamped = BehaviorRelay(0)
      let both = Property.combineLatest(input.asProperty(), clamped.asProperty())
      let seen = Probe()
      let corrections = Counter()
      let tokens = [
        both.subscribe { pair in seen.enter(pair.0 * 100 + pair.1) },
        input.subscribe { value in
          if value > 10 {
            corrections.increment()
            clamped.accept(value - 10)
          }
        },
      ]
      let target = Engine.reentrancyLimit + Engine.reentrancyLimit / 5
      let finished = runConcurrently(threads: 2, timeout: 240 * Sustained.slowdown) { thread in
        var step = thread
        while corrections.value < target && step < 10_000_000 {
          input.accept(step % 20)
          step += 2
        }
      }
      let final = both.value
      print(
        "corrective writes: \(corrections.value), final pair \(final), finished \(finished)")
      let endsOnFinal = seen.last == final.0 * 100 + final.1
      if !finished || corrections.value < target || !endsOnFinal || seen.overlaps > 0 { exit(1) }
      for token in tokens { token.cancel() }
    }
    Self.report("merged relay", result, since: start)
  }

  /// Prints what the child process printed, and how long it ran.
  static func report(_ shape: String, _ result: ExitTest.Result?, since start: Double) {
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    let stop = errors.split(separator: "\n").first { $0.contains("rror") }.map { "; \($0)" } ?? ""
    print(
      """
      sustained: corrective sink (\(shape)): \
      \(output.split(separator: "\n").last { $0.hasPrefix("corrective") } ?? "no output"), \
      child ran \(Int((Sustained.now() - start) * 1000)) ms\(stop)
      """)
  }
}
