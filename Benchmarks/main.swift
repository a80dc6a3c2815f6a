// The benchmarks of issues 8 and 17: every scenario against a hand-written baseline of the same
// work, in one process, release build. Each scenario is set up and run inside a function, with
// sinks that are closures capturing what they update, as an app writes them (RelayScenarios).
//
//     swift run -c release invalidating-benchmarks            # the table
//     swift run -c release invalidating-benchmarks --json     # the same figures as JSON
//     swift run -c release invalidating-benchmarks --quick    # a smoke run for CI (seconds)
//     ... --only=diamond                                      # scenarios whose name matches
//     ... --instructions                                      # and instructions per operation
//     ... --profile=diamond --iterations=100000               # one operation, for a profiler
//     ... --profile=create-relay --iterations=1000 --allocations  # and what it allocates
//     ... --profile=read --iterations=100000 --threads-present    # after starting a thread
//     ... --workloads                                         # only the standard workloads
//
// `--instructions` adds callgrind's instructions per operation, ours and the floor's, beside
// the times of each row that has profiles (Instructions.swift): the figures to compare on a
// shared machine. It needs valgrind, and takes a minute or two (`--only` narrows it).
//
// The standard reactive-graph workloads (Workloads/) run after the scenarios, as a group of
// their own with a table of their own: `--workloads` or `--only=workloads` runs them alone;
// `--only=NAME` also runs the workload cases whose name contains NAME.
//
// Each figure is the median of several calibrated samples, taken after a warm-up, with ours
// and the baseline sampled in turn (the two-thread rows: wall-clock time, in turn too). Exit
// status 0 even when a target is missed: the report says so; `--strict` exits 1 on a miss.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

var arguments = Set(CommandLine.arguments.dropFirst())
/// Takes the value of `--name=VALUE` out of the arguments.
@MainActor
func option(_ name: String) -> String? {
  guard let argument = arguments.first(where: { $0.hasPrefix("--\(name)=") }) else { return nil }
  arguments.remove(argument)
  return String(argument.dropFirst(name.count + 3))
}
/// Runs only the scenarios whose name contains this text.
let only = option("only")
/// Runs one scenario's operation for a profiler instead (see Profiles.swift).
let profile = option("profile")
let iterations = option("iterations")
let known: Set = [
  "--json", "--quick", "--strict", "--help", "--workloads", "--instructions", "--allocations",
  "--threads-present",
]
let usage = """
  usage: invalidating-benchmarks [--quick] [--json] [--strict] [--instructions] [--workloads]
                                 [--only=NAME]
         invalidating-benchmarks --profile=NAME --iterations=N [--allocations] [--threads-present]
  """
if arguments.contains("--help") || !arguments.isSubset(of: known) {
  print(usage)
  exit(arguments.contains("--help") ? 0 : 2)
}
if let profile {
  let profiles = profiles.merging(workloadProfiles) { scenario, _ in scenario }
  guard let build = profiles[profile], let count = iterations.flatMap({ Int($0) }), count >= 0
  else {
    print(usage)
    print("profiles: " + profiles.keys.sorted().joined(separator: ", "))
    exit(2)
  }
  // A process that has started a thread locks with atomic instructions from then on (see
  // `Lock`): what every app and service pays.
  if arguments.contains("--threads-present") { startAThread() }
  let run = build()
  run(count)
  print("(profile \(profile), \(count) iterations; checksum \(consumed))")
  if arguments.contains("--allocations") {
    // Counted apart from the runs above, which a profiler measures.
    if let cost = allocationsPerOperation(of: run, iterations: max(count, 1)) {
      print(
        "per operation: \(format(cost.blocks, 1)) allocations, \(format(cost.requested, 0)) bytes "
          + "asked, \(format(cost.chunks, 0)) bytes of heap chunks")
      print(
        "by size asked: "
          + cost.sizes.map { "\(format($0.count, 1)) x \($0.bytes) B" }.joined(separator: ", "))
    } else {
      print("(allocations are not counted on this platform)")
    }
  }
  exit(0)
}
let quick = arguments.contains("--quick")
let configuration: Configuration = quick ? .quick : .full
/// Where valgrind is, when `--instructions` asks for counts.
let valgrind: String? = arguments.contains("--instructions") ? valgrindPath() : nil
if arguments.contains("--instructions") && valgrind == nil {
  printError(
    """
    invalidating-benchmarks: --instructions counts instructions under valgrind, which is not on \
    PATH. Install it (apt-get install -y valgrind) or run without --instructions.
    """)
  exit(1)
}

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
  ("update1to1", { [computedUpdate(configuration)] }),
  ("combineLatest", { [combineLatestOfSix(configuration)] }),
  ("batch write", { [writeInBatch(configuration)] }),
  ("view", { MainActor.assumeIsolated { viewScenarios(configuration) } }),
  ("tracing", { MainActor.assumeIsolated { tracingScenarios(configuration) } }),
  (
    "heap",
    {
      [(true, true), (false, true), (true, false), (false, false)].map {
        heapPerSubscription(weakly: $0.0, inBag: $0.1, quick: quick)
      } + [
        heapPerRelay(quick: quick)
      ]
    }
  ),
  ("async", { [latestWinsAsync(configuration)] }),
  (
    "parallel",
    {
      [false, true].map { twoThreads(apart: $0, configuration) } + [
        twoThreadsOnceJoined(configuration)
      ]
    }
  ),
]
/// The scenarios measured a second time once the process has started a thread, each row named
/// with ", threads present": the lock then takes atomic instructions (see `Lock`), as in every
/// app and service, where the rows above measure a process that never started one. They run
/// last (after the two-thread rows too): a process never goes back to one thread. For
/// information, but for the read's target of issue 30: 0.6 of the locked read's time.
let measuredWithThreadsToo: Set = [
  "set", "subscribe", "read", "chain", "diamond", "update1to1", "combineLatest", "batch write",
  "view",
]
var rows: [Row] = []
/// `--only=workloads` names the group of workloads: all of them, and no other scenario.
let onlyWorkloads = only == "workloads"
if !(onlyWorkloads || arguments.contains("--workloads")) {
  let chosen = scenarios.filter { scenario in only.map { scenario.name.contains($0) } ?? true }
  for scenario in chosen { rows.append(contentsOf: scenario.run()) }
  let again = chosen.filter { measuredWithThreadsToo.contains($0.name) }
  if !again.isEmpty { startAThread() }
  for scenario in again {
    for var row in scenario.run() {
      row.name += ", threads present"
      row.instructions = nil  // counted in the row above (`--threads-present` counts these)
      if row.note.hasSuffix("; one thread") { row.note.removeLast("; one thread".count) }
      if row.name.hasPrefix("read the value") {
        row.target = "<= 0.60x"
        row.pass = row.ratio.map { $0 <= 0.6 }
      } else {
        row.target = "-"
        row.pass = nil
      }
      rows.append(row)
    }
  }
}
if let valgrind {
  for index in rows.indices {
    guard let profiles = rows[index].instructions else { continue }
    rows[index].counts = countInstructions(profiles, valgrind: valgrind, quick: quick)
  }
}
let workloadResults = runWorkloads(matching: onlyWorkloads ? nil : only, configuration)

if arguments.contains("--json") {
  let workloads = workloadResults.isEmpty ? nil : workloadObjects(workloadResults)
  print(json(rows, workloads: workloads, mode: quick ? "quick" : "full"))
} else {
  if !rows.isEmpty {
    print(table(rows))
    let misses = rows.filter { $0.pass == false || $0.counts?.pass == false }.map(\.name)
    print("")
    print(misses.isEmpty ? "every target met" : "missed: " + misses.joined(separator: "; "))
  }
  if !workloadResults.isEmpty {
    if !rows.isEmpty { print("") }
    print(workloadTable(workloadResults))
    print("")
    print("every workload assertion held")
  }
  print("(\(quick ? "quick" : "full") run; checksum \(consumed))")
}
if arguments.contains("--strict")
  && rows.contains(where: { $0.pass == false || $0.counts?.pass == false })
{
  exit(1)
}
