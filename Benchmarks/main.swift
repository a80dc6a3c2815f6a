// The benchmarks of issue 8: every scenario against a hand-written baseline of the same work,
// in one process, release build.
//
//     swift run -c release invalidating-benchmarks            # the table
//     swift run -c release invalidating-benchmarks --json     # the same figures as JSON
//     swift run -c release invalidating-benchmarks --quick    # a smoke run for CI (seconds)
//
// Each figure is the median of several calibrated samples, taken after a warm-up, with ours
// and the baseline sampled in turn. Exit status 0 even when a target is missed: the report
// says so; `--strict` exits 1 on a miss.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = Set(CommandLine.arguments.dropFirst())
let known: Set = ["--json", "--quick", "--strict", "--help"]
if arguments.contains("--help") || !arguments.isSubset(of: known) {
  print("usage: invalidating-benchmarks [--quick] [--json] [--strict]")
  exit(arguments.contains("--help") ? 0 : 2)
}
let quick = arguments.contains("--quick")
let configuration: Configuration = quick ? .quick : .full

var rows: [Row] = []
for count in [1, 10, 100, 0] {
  rows.append(setAndNotify(subscribers: count, configuration))
}
let alone = subscribeAndCancel(others: 0, alone: nil, configuration)
rows.append(alone)
rows.append(subscribeAndCancel(others: 1_000, alone: alone.ours, configuration))
rows.append(read(configuration))
rows.append(mapChain(configuration))
rows.append(diamond(configuration))
rows.append(combineLatestOfSix(configuration))
rows.append(contentsOf: MainActor.assumeIsolated { viewScenarios(configuration) })
rows.append(heapPerSubscription())

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
