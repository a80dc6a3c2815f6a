// The benchmarks of issue 8: every scenario against a hand-written baseline of the same work,
// in one process, release build.
//
//     swift run -c release invalidating-benchmarks            # the table
//     swift run -c release invalidating-benchmarks --json     # the same figures as JSON
//     swift run -c release invalidating-benchmarks --quick    # a smoke run for CI (seconds)
//     ... --only=diamond                                      # scenarios whose name matches
//
// Each figure is the median of several calibrated samples, taken after a warm-up, with ours
// and the baseline sampled in turn. Exit status 0 even when a target is missed: the report
// says so; `--strict` exits 1 on a miss.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

var arguments = Set(CommandLine.arguments.dropFirst())
/// Runs only the scenarios whose name contains this text (for profiling one of them).
let only = arguments.first { $0.hasPrefix("--only=") }.map { String($0.dropFirst(7)) }
if let only { arguments.remove("--only=" + only) }
let known: Set = ["--json", "--quick", "--strict", "--help"]
if arguments.contains("--help") || !arguments.isSubset(of: known) {
  print("usage: invalidating-benchmarks [--quick] [--json] [--strict] [--only=NAME]")
  exit(arguments.contains("--help") ? 0 : 2)
}
let quick = arguments.contains("--quick")
let configuration: Configuration = quick ? .quick : .full

/// The scenarios by name, in report order; each returns its rows.
let scenarios: [(name: String, run: () -> [Row])] = [
  ("set", { [1, 10, 100, 0].map { setAndNotify(subscribers: $0, configuration) } }),
  (
    "subscribe",
    {
      let alone = subscribeAndCancel(others: 0, alone: nil, configuration)
      return [alone, subscribeAndCancel(others: 1_000, alone: alone.ours, configuration)]
    }
  ),
  ("read", { [read(configuration)] }),
  ("chain", { [mapChain(configuration)] }),
  ("diamond", { [diamond(configuration)] }),
  ("combineLatest", { [combineLatestOfSix(configuration)] }),
  ("view", { MainActor.assumeIsolated { viewScenarios(configuration) } }),
  ("heap", { [heapPerSubscription()] }),
]
var rows: [Row] = []
for scenario in scenarios where only.map({ scenario.name.contains($0) }) ?? true {
  rows.append(contentsOf: scenario.run())
}

if arguments.contains("--json") {
  print(json(rows, mode: quick ? "quick" : "full"))
} else {
  print(table(rows))
  let misses = rows.filter { $0.pass == false }.map(\.name)
  print("")
  print(misses.isEmpty ? "every target met" : "missed: " + misses.joined(separator: "; "))
  print("(\(quick ? "quick" : "full") run; checksum \(consumed))")
}
if arguments.contains("--strict") && rows.contains(where: { $0.pass == false }) { exit(1) }
