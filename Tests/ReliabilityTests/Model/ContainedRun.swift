import Foundation
import Testing

/// Stops of the engine that are defects on file: a random program or the fuzz that ends in one
/// of them records a known issue, not a failure. When a defect is fixed, delete its entry; a
/// program that stops with it is then a failure again.
enum KnownStops {
  /// A fragment of the stop's message, and the defect it is.
  /// (None now: issue 26 point 3's stop and the fuzz's "computing it read its own value",
  /// a pull handed the drain, are fixed; `HandedRoleInComputationTests` holds the latter.)
  static let all: [(message: String, defect: String)] = []

  /// The defect `output` (a child's standard error) stopped with, if it is a known one.
  static func defect(in output: String) -> String? {
    all.first { output.contains($0.message) }?.defect
  }
}

/// Runs a range of seeds in child processes, so that a program that stops the engine (a
/// `fatalError`: a misuse stop on a valid program, a failed precondition) ends only its child:
/// the parent records the stop with the seed it stopped at, and goes on from the next seed in
/// a new child. Issues the child records (mismatches) are reported by the parent, as Swift
/// Testing forwards them; what the child prints is printed again by the parent.
///
/// The child tells the parent how far it got on its standard error: ``starting(_:)`` before
/// each seed, ``finish()`` once done. A data race ThreadSanitizer reports there is recorded
/// by the parent. It always exits with a failure status (``finish()``
/// does), so that the parent's expectation (`.failure`) holds whatever the child did; the
/// parent judges from the output, not the status.
enum ContainedRun {
  private static let seedMarker = "contained-run: seed "
  private static let finishedMarker = "contained-run: finished"

  /// In the child: the program of `seed` starts.
  static func starting(_ seed: UInt64) {
    // Written at once (unbuffered), so that it is out before a stop.
    FileHandle.standardError.write(Data("\(seedMarker)\(seed)\n".utf8))
  }

  /// In the child: every seed ran; ends the child.
  static func finish() -> Never {
    FileHandle.standardError.write(Data("\(finishedMarker)\n".utf8))
    exit(EXIT_FAILURE)  // which flushes what the child printed
  }

  /// Runs `seeds`, `child(range)` running one child over `range` (an exit test whose body
  /// calls ``starting(_:)`` per seed and then ``finish()``), restarting after each stop, at
  /// most `maxStops` times.
  ///
  /// - Returns: The stops, as `(seed, message)`.
  @discardableResult
  static func run(
    _ seeds: Range<UInt64>, what: String, maxStops: Int = 5,
    child: (Range<UInt64>) async -> ExitTest.Result?
  ) async -> [(seed: UInt64, message: String)] {
    var next = seeds.lowerBound
    var stops: [(seed: UInt64, message: String)] = []
    while next < seeds.upperBound {
      guard let result = await child(next..<seeds.upperBound) else {
        Issue.record("The child process running \(what) from seed \(next) could not run")
        return stops
      }
      let output = String(decoding: result.standardOutputContent, as: UTF8.self)
      if !output.isEmpty { print(output, terminator: output.hasSuffix("\n") ? "" : "\n") }
      let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
      // A data race ThreadSanitizer reports in a child would otherwise only change the
      // child's exit status, which the parent does not judge.
      if let race = errors.range(of: "WARNING: ThreadSanitizer") {
        let report = errors[race.lowerBound...].split(separator: "\n").prefix(40)
        Issue.record(
          Comment(
            rawValue: "\(what) from seed \(next): ThreadSanitizer reported a race:\n"
              + report.joined(separator: "\n")))
      }
      if errors.contains(finishedMarker) { return stops }
      let lines = errors.split(separator: "\n")
      let last = lines.last { $0.hasPrefix(seedMarker) }.flatMap {
        UInt64($0.dropFirst(seedMarker.count))
      }
      let message =
        lines.first { $0.contains("Fatal error") }.map(String.init)
        ?? "exit status \(result.exitStatus), no message"
      guard let seed = last else {
        Issue.record("The child process running \(what) stopped before its first seed: \(message)")
        return stops
      }
      stops.append((seed, message))
      let report = "\(what): seed \(seed) stopped the process: \(message)"
      if let defect = KnownStops.defect(in: errors) {
        withKnownIssue(Comment(rawValue: defect), isIntermittent: true) {
          Issue.record(Comment(rawValue: report))
        }
      } else {
        Issue.record(Comment(rawValue: report))
      }
      if stops.count == maxStops {
        let note = "\(what): \(maxStops) stops; the seeds from \(seed + 1) were not run"
        if stops.allSatisfy({ KnownStops.defect(in: $0.message) != nil }) {
          print(note)
        } else {
          Issue.record(Comment(rawValue: note))
        }
        return stops
      }
      next = seed + 1
    }
    return stops
  }
}
