#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// `--instructions`: instructions per operation beside the times, counted by callgrind, which
// gives the same figure on a busy shared machine as on an idle one.
//
// For each row that names its profiles, the benchmark runs itself under
// `valgrind --tool=callgrind` with `--profile=NAME --iterations=N` and again with 2N, for our
// side and for the floor's, and takes (I(2N) - I(N)) / N: the setup, the runtime's start and
// the exit cancel out, and what is left is one operation.

/// What an operation's instruction count must meet.
enum InstructionTarget {
  /// At most this many times the floor's count.
  case timesFloor(Double)
  /// At most this many instructions per operation.
  case atMost(Double)

  var text: String {
    switch self {
    case .timesFloor(let limit): "<= \(format(limit, 2))x"
    case .atMost(let limit): "<= \(format(limit, 0))"
    }
  }

  /// Whether `ours` meets the target, given the floor's count where there is one.
  func isMet(ours: Double, floor: Double?) -> Bool? {
    switch self {
    case .timesFloor(let limit): floor.map { ours / $0 <= limit }
    case .atMost(let limit): ours <= limit
    }
  }
}

/// Where a row's instruction counts come from: the profiles of its two sides
/// (Profiles.swift), and the target the count must meet.
struct InstructionProfiles {
  /// Our side's profile.
  var ours: String
  /// The baseline's profile: the floor (`NAME-floor`) unless the row says otherwise.
  var baseline: String?
  /// The target, if the row has one for instructions.
  var target: InstructionTarget?

  init(_ ours: String, baseline: String? = nil, target: InstructionTarget? = nil) {
    self.ours = ours
    self.baseline = baseline ?? "\(ours)-floor"
    self.target = target
  }
}

/// A row's instruction counts, per operation.
struct InstructionCounts {
  var ours: Double
  var baseline: Double?
  var target: InstructionTarget?

  var ratio: Double? { baseline.flatMap { $0 > 0 ? ours / $0 : nil } }
  var pass: Bool? { target?.isMet(ours: ours, floor: baseline) }
}

/// How many operations a profile runs under callgrind (N; the second run takes 2N): enough
/// that an operation's instructions dwarf the run-to-run differences of the setup.
func instructionIterations(_ profile: String, quick: Bool) -> Int {
  let full =
    if profile.hasPrefix("batch") {
      10
    } else if profile.hasSuffix("-traced") {
      5_000
    } else {
      100_000
    }
  return quick ? max(2, full / 5) : full
}

/// The path of `valgrind` on `PATH`, or `nil`.
func valgrindPath() -> String? {
  let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/valgrind"
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}

/// This executable's path, for running it again under valgrind.
func executablePath() -> String {
  #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4_096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if length > 0 {
      return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  #endif
  return CommandLine.arguments[0]
}

/// `text` quoted for the shell.
func shellQuoted(_ text: String) -> String {
  "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
    + "'"
}

/// A callgrind run of one profile, started: `total()` waits for it and returns the
/// instructions it collected.
struct CallgrindRun {
  private let stream: UnsafeMutablePointer<FILE>
  private let description: String

  /// Starts `valgrind` on this executable's `--profile=profile --iterations=iterations`.
  init(valgrind: String, profile: String, iterations: Int) {
    // With Swift's per-process hash seed fixed: otherwise the dictionaries of a workload (the
    // dynamic graphs') move its count by up to 3% from one run to the next.
    let command = [
      "SWIFT_DETERMINISTIC_HASHING=1",
      shellQuoted(valgrind), "--tool=callgrind", "--callgrind-out-file=/dev/null",
      shellQuoted(executablePath()), shellQuoted("--profile=\(profile)"),
      "--iterations=\(iterations)", "2>&1",
    ].joined(separator: " ")
    description = "--profile=\(profile) --iterations=\(iterations)"
    guard let stream = popen(command, "r") else {
      printError("invalidating-benchmarks: could not start valgrind for \(description)")
      exit(1)
    }
    self.stream = stream
  }

  /// Waits for the run; returns its total instruction count (callgrind's "Collected").
  func total() -> Int {
    var output = ""
    var buffer = [CChar](repeating: 0, count: 1_024)
    while fgets(&buffer, Int32(buffer.count), stream) != nil {
      output += String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let status = pclose(stream)
    for line in output.split(separator: "\n") where line.contains("Collected :") {
      if let count = line.split(separator: " ").last.flatMap({ Int($0) }), status == 0 {
        return count
      }
    }
    fail("valgrind gave no count for \(description) (status \(status)):\n\(output)")
  }

  private func fail(_ message: String) -> Never {
    printError("invalidating-benchmarks: \(message)")
    exit(1)
  }
}

/// Counts the instructions per operation of `profiles`' two sides, both sides' runs at once.
func countInstructions(
  _ profiles: InstructionProfiles, valgrind: String, quick: Bool
) -> InstructionCounts {
  let sides = [profiles.ours] + (profiles.baseline.map { [$0] } ?? [])
  let runs = sides.map { profile in
    let n = instructionIterations(profile, quick: quick)
    return (
      n, CallgrindRun(valgrind: valgrind, profile: profile, iterations: n),
      CallgrindRun(valgrind: valgrind, profile: profile, iterations: 2 * n)
    )
  }
  let perOperation = runs.map { n, once, twice in
    Double(twice.total() - once.total()) / Double(n)
  }
  return InstructionCounts(
    ours: perOperation[0], baseline: perOperation.count > 1 ? perOperation[1] : nil,
    target: profiles.target)
}
