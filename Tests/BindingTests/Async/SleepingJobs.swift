import InvalidatingBinding
import InvalidatingCore
import InvalidatingTesting

/// Jobs sent through one async strategy, on a test clock: a job is a number of seconds, and
/// its work sleeps that long on ``clock``, then returns the number, which ``recorded`` records
/// with the time it arrives.
///
/// ```swift
/// let jobs = SleepingJobs { input, work in input.concatMap(work) }
/// jobs.send(3, 1, 2)
/// await jobs.clock.advance(by: .seconds(10))
/// ```
final class SleepingJobs {
  let clock: TestClock
  let recorded: Recorder<Int>
  /// The input; `nil` once released, which ends it.
  private var input: PublishRelay<Int>?

  /// Jobs through `strategy`, which applies an operator to the input with the work it gets.
  init(_ strategy: (Signal<Int>, @escaping @Sendable (Int) async -> Int) -> Signal<Int>) {
    let clock = TestClock()
    let input = PublishRelay<Int>()
    let output = strategy(input) { seconds in
      try? await clock.sleep(for: .seconds(seconds))
      return seconds
    }
    self.clock = clock
    self.input = input
    recorded = Recorder(output, clock: clock)
  }

  /// Sends `jobs`, one after the other, at the clock's present time.
  func send(_ jobs: Int...) {
    for job in jobs { input?.accept(job) }
  }

  /// Releases the input, which ends it.
  func endInput() {
    input = nil
  }
}
