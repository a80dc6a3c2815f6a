#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The standard reactive-graph workloads of issue 20: the js-reactivity-benchmark's "kairo"
// cases and the cellx layered graph, each built once per implementation (a column of the
// report), timed per iteration, with the original's assertions checked on every iteration.
//
//     swift run -c release invalidating-benchmarks --workloads         # only these
//     swift run -c release invalidating-benchmarks --only=cellx        # cases whose name matches
//     ... --profile=workload-triangle --iterations=200                 # ours, for callgrind
//     ... --profile=workload-triangle-observation --iterations=200     # another column's
//
// One iteration is one call of the function the original times: for most cases a write in a
// batch and a read, repeated 50 to 1,000 times. A failed assertion stops the process at once
// with status 1 and a message naming the case and the implementation.
//
// A new implementation (a column) conforms to `WorkloadImplementation`, writing each case once
// more, and joins `workloadImplementations`; the cases' shapes, expected values and effect
// counts are stated in the requirements' comments.

/// Counts a workload's effect runs. Safe: the benchmark creates, writes and reads it on its one
/// thread, where every write of a workload is delivered.
final class EffectCounter: @unchecked Sendable {
  var runs = 0
}

/// One case built for one implementation: its graph exists and its effects are subscribed.
struct Workload {
  /// Runs one iteration, checking the original's assertions.
  var iterate: () -> Void
  /// How many times the case's effects have run so far: a sink called, or an observation
  /// closure run again.
  var effectRuns: () -> Int
  /// Why the implementation does not run this case, if it does not.
  var notRun: String?

  /// A case whose effects count their runs in `effects`, and whose iteration is `iterate`.
  init(counting effects: EffectCounter, iterate: @escaping () -> Void) {
    self.iterate = iterate
    self.effectRuns = { effects.runs }
    notRun = nil
  }

  /// A case the implementation cannot run, for `reason`.
  static func notRun(_ reason: String) -> Workload {
    var workload = Workload(counting: EffectCounter()) {}
    workload.notRun = reason
    return workload
  }
}

/// The cases, written with one reactive API: one column of the report.
///
/// Each requirement builds the case's graph and effects (not timed) and returns its iteration.
/// The shapes are the originals' (js-reactivity-benchmark `src/kairo/*.ts`, and its port of
/// the cellx benchmark); "effect" means a subscription that runs on every change of what it
/// reads, and each write below is made in a batch of its own.
protocol WorkloadImplementation {
  /// The column's name in the report.
  var name: String { get }
  /// The name's form in `--profile=workload-<case>-<slug>` (the first column's profiles have no
  /// slug).
  var slug: String { get }

  /// head → c1 = head → c2 = (c1, 0) → c3 = busy, c2 + 1 → c4 = c3 + 2 → c5 = c4 + 3, and an
  /// effect on c5 that is busy too. Writes 1, then 0..<1000; after each, c5 == 6.
  func avoidablePropagation(_ check: WorkloadCheck) -> Workload
  /// 50 branches off one head: head + i → + 1, an effect on each. Writes 1, then 0..<50;
  /// after writing i, the last branch == i + 50.
  func broadPropagation(_ check: WorkloadCheck) -> Workload
  /// A chain of 50 computeds, each + 1, with an effect at the end. Writes 1, then 0..<50;
  /// after writing i, the end == 50 + i.
  func deepPropagation(_ check: WorkloadCheck) -> Workload
  /// 5 computeds head + 1, summed, an effect on the sum. Writes 1 (sum == 10), then 0..<500
  /// (sum == (i + 1) * 5); the effect runs 500 times in that loop.
  func diamond(_ check: WorkloadCheck) -> Workload
  /// 100 heads into one computed of all their values; 100 computeds split it again, each
  /// + 1, with an effect on each. Writes head i = i for i in 0..<10 (split i == i + 1), then
  /// head i = 2i (split i == 2i + 1).
  func mux(_ check: WorkloadCheck) -> Workload
  /// A computed that reads head 30 times and sums, an effect on it. Writes 1 (== 30), then
  /// 0..<100 (== 30i); the effect runs 100 times in that loop.
  func repeatedObservers(_ check: WorkloadCheck) -> Workload
  /// A chain head, c1 = head + 1, ..., c9, and the sum of those 10, an effect on the sum. Reads
  /// the sum inside the batch, after the write: 55 after writing 1, then 45 + 10i for
  /// i in 0..<100; the effect runs 100 times in that loop.
  func triangle(_ check: WorkloadCheck) -> Workload
  /// double = head * 2 and inverse = -head; a computed reads head 20 times and adds double
  /// when head is odd, inverse when it is even: it switches inputs on every write. An effect
  /// on it. Writes 1 (== 40), then 0..<100 (== 40i when i is odd, -20i when even); the effect
  /// runs 100 times in that loop.
  func unstable(_ check: WorkloadCheck) -> Workload
  /// Four sources (1, 2, 3, 4), then `layers` layers of four computeds over the layer before,
  /// p1 = p2, p2 = p1 - p3, p3 = p2 + p4, p4 = p3, an effect on each. An iteration reads the
  /// last layer, writes the sources in one batch, and reads it again; it alternates between
  /// writing (4, 3, 2, 1) and (1, 2, 3, 4), so every iteration checks both known states
  /// (`cellxExpected`).
  func cellx(layers: Int, _ check: WorkloadCheck) -> Workload
  /// The js-reactivity-benchmark's creation cases (`src/sBench.ts`, after S.js's): one
  /// iteration makes the sources and the computations of `shape`, each computation read by an
  /// effect once, and releases them all (CreationWorkloads.swift).
  func creation(_ shape: CreationShape, _ check: WorkloadCheck) -> Workload
  /// The js-reactivity-benchmark's dynamic graphs (`perfTests` in `src/config.ts`, run by
  /// `src/util/dependencyGraph.ts`): one iteration is one of the original's steps, a write of
  /// one source and a read of the leaves (DynamicGraphWorkloads.swift).
  func dynamicGraph(_ configuration: DynamicGraphConfiguration, _ check: WorkloadCheck)
    -> Workload
  /// One iteration makes a view model of 10 relays and 5 computed properties, a view's
  /// subscription to each computed property, and releases them (ViewModelWorkloads.swift).
  func viewModel(_ check: WorkloadCheck) -> Workload
}

extension WorkloadImplementation {
  func creation(_ shape: CreationShape, _ check: WorkloadCheck) -> Workload {
    .notRun("written with computed properties only (issue 30)")
  }

  func dynamicGraph(_ configuration: DynamicGraphConfiguration, _ check: WorkloadCheck)
    -> Workload
  {
    .notRun("written with computed properties only (issue 30)")
  }

  func viewModel(_ check: WorkloadCheck) -> Workload {
    .notRun("written with computed properties only (issue 30)")
  }
}

/// The last layer of cellx for the sources (1, 2, 3, 4) and for (4, 3, 2, 1), by layer count:
/// the values the cellx benchmark and its js-reactivity-benchmark port check.
let cellxExpected: [Int: (initial: [Int], written: [Int])] = [
  1_000: ([-3, -6, -2, 2], [-2, -4, 2, 3]),
  2_500: ([-3, -6, -2, 2], [-2, -4, 2, 3]),
  5_000: ([2, 4, -1, -6], [-2, 1, -4, -4]),
]

/// The assertions of one case for one implementation; a failed one ends the process.
struct WorkloadCheck: Sendable {
  let workload: String
  let implementation: String

  /// Stops the process unless `actual == expected`; `what` names the value and the moment.
  @inline(__always)
  func equal(_ actual: Int, _ expected: Int, _ what: @autoclosure () -> String) {
    if _slowPath(actual != expected) { fail("\(what()) is \(actual), expected \(expected)") }
  }

  /// Stops the process unless `actual == expected`, for the sums of the dynamic graphs (the
  /// original's values are JavaScript numbers: doubles).
  @inline(__always)
  func equal(_ actual: Double, _ expected: Double, _ what: @autoclosure () -> String) {
    if _slowPath(actual != expected) { fail("\(what()) is \(actual), expected \(expected)") }
  }

  /// Stops the process unless `actual == expected`, for the layer values of cellx.
  @inline(__always)
  func equal(_ actual: [Int], _ expected: [Int], _ what: @autoclosure () -> String) {
    if _slowPath(actual != expected) { fail("\(what()) is \(actual), expected \(expected)") }
  }

  func fail(_ message: String) -> Never {
    let line = "workload \(workload) (\(implementation)) FAILED: \(message)\n"
    line.utf8CString.withUnsafeBufferPointer {
      _ = write(STDERR_FILENO, $0.baseAddress, $0.count - 1)
    }
    exit(1)
  }
}

/// Work the original calls heavy: 100 dependent steps the optimizer cannot fold away.
@inline(never)
func busy() {
  var a = consumed
  for _ in 0..<100 { a = a &* 31 &+ 7 }
  consumed = a
}

/// One case: its name and how to build it from an implementation.
struct WorkloadCase {
  let name: String
  let build: (any WorkloadImplementation, WorkloadCheck) -> Workload
}

/// The cases, in report order.
@MainActor
let workloadCases: [WorkloadCase] =
  [
    WorkloadCase(name: "avoidablePropagation") { $0.avoidablePropagation($1) },
    WorkloadCase(name: "broadPropagation") { $0.broadPropagation($1) },
    WorkloadCase(name: "deepPropagation") { $0.deepPropagation($1) },
    WorkloadCase(name: "diamond") { $0.diamond($1) },
    WorkloadCase(name: "mux") { $0.mux($1) },
    WorkloadCase(name: "repeatedObservers") { $0.repeatedObservers($1) },
    WorkloadCase(name: "triangle") { $0.triangle($1) },
    WorkloadCase(name: "unstable") { $0.unstable($1) },
  ]
  + cellxExpected.keys.sorted().map { layers in
    WorkloadCase(name: "cellx\(layers)") { $0.cellx(layers: layers, $1) }
  }
  + creationShapes.map { shape in
    WorkloadCase(name: shape.name) { $0.creation(shape, $1) }
  }
  + dynamicGraphConfigurations.map { configuration in
    WorkloadCase(name: configuration.name) { $0.dynamicGraph(configuration, $1) }
  }
  + [WorkloadCase(name: "viewModel") { $0.viewModel($1) }]

/// The columns, ours first: the ratios in the report are to ours.
@MainActor
let workloadImplementations: [any WorkloadImplementation] = {
  var implementations: [any WorkloadImplementation] = [OurWorkloads(), ComputedWorkloads()]
  if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
    implementations.append(ObservationWorkloads(cachesComputeds: false))
    implementations.append(ObservationWorkloads(cachesComputeds: true))
  }
  return implementations
}()

/// The figures of one case for one implementation.
struct WorkloadResult {
  var workload: String
  var implementation: String
  /// Median nanoseconds per iteration; `nil` when not run.
  var nanoseconds: Double?
  /// Allocations per iteration, when the platform counts them.
  var allocations: Double?
  var effectRuns: Double?
  /// This time divided by ours (the first column that ran the case): above 1, ours is faster.
  var relativeToOurs: Double?
  var notRun: String?
}

/// Builds the cases whose name contains `filter` (every case if `nil`) for every
/// implementation, times them, counts their allocations and effect runs, and returns the
/// results in report order.
@MainActor
func runWorkloads(matching filter: String?, _ configuration: Configuration) -> [WorkloadResult] {
  var results: [WorkloadResult] = []
  for workloadCase in workloadCases where filter.map({ workloadCase.name.contains($0) }) ?? true {
    let built = workloadImplementations.map { implementation in
      workloadCase.build(
        implementation,
        WorkloadCheck(workload: workloadCase.name, implementation: implementation.name))
    }
    let runnable = built.indices.filter { built[$0].notRun == nil }
    let bodies: [Body] = runnable.map { index in
      let iterate = built[index].iterate
      return { iterations in for _ in 0..<iterations { iterate() } }
    }
    let times = measure(bodies, configuration)
    var caseResults = built.indices.map { index in
      WorkloadResult(
        workload: workloadCase.name, implementation: workloadImplementations[index].name,
        notRun: built[index].notRun)
    }
    for (position, index) in runnable.enumerated() {
      let time = times[position]
      // Counted apart from the timing: enough iterations to average, about 20 ms of them.
      let iterations = max(1, min(1_000, Int(20_000_000 / max(time, 1))))
      let runsBefore = built[index].effectRuns()
      let allocationsBefore = threadAllocations()
      bodies[position](iterations)
      let allocationsAfter = threadAllocations()
      let runs = built[index].effectRuns() - runsBefore
      caseResults[index].nanoseconds = time
      caseResults[index].effectRuns = Double(runs) / Double(iterations)
      if let allocationsBefore, let allocationsAfter {
        caseResults[index].allocations =
          Double(allocationsAfter - allocationsBefore) / Double(iterations)
      }
    }
    if let ours = caseResults.lazy.compactMap(\.nanoseconds).first {
      for index in caseResults.indices {
        caseResults[index].relativeToOurs = caseResults[index].nanoseconds.map { $0 / ours }
      }
    }
    results.append(contentsOf: caseResults)
    blackHole(built.map(\.iterate))
  }
  return results
}

/// `--profile=workload-<case>[-<slug>]`: each case of each implementation, for a profiler.
@MainActor
var workloadProfiles: [String: () -> Body] {
  var profiles: [String: () -> Body] = [:]
  for workloadCase in workloadCases {
    for (index, implementation) in workloadImplementations.enumerated() {
      let name = "workload-\(workloadCase.name)" + (index == 0 ? "" : "-\(implementation.slug)")
      profiles[name] = {
        let workload = workloadCase.build(
          implementation,
          WorkloadCheck(workload: workloadCase.name, implementation: implementation.name))
        if let reason = workload.notRun {
          print("\(name): not run: \(reason)")
          exit(2)
        }
        return { iterations in for _ in 0..<iterations { workload.iterate() } }
      }
    }
  }
  return profiles
}

/// The workloads as an aligned text table, one line per case and implementation.
func workloadTable(_ results: [WorkloadResult]) -> String {
  let header = [
    "workload", "implementation", "ns/iter", "time ÷ ours", "allocs/iter", "effects/iter", "note",
  ]
  let lines = results.map { result -> [String] in
    guard let time = result.nanoseconds else {
      return [result.workload, result.implementation, "-", "-", "-", "-", result.notRun ?? ""]
    }
    return [
      result.workload, result.implementation, format(time, 0),
      result.relativeToOurs.map { format($0, 2) + "x" } ?? "-",
      result.allocations.map { format($0, 1) } ?? "-",
      result.effectRuns.map { format($0, 1) } ?? "-", "",
    ]
  }
  let widths = header.indices.map { column in
    ([header] + lines).map { line in line[column].count }.max() ?? 0
  }
  func render(_ cells: [String]) -> String {
    let line = cells.indices.map { column in
      let padding = String(repeating: " ", count: widths[column] - cells[column].count)
      return column < 2 || column == 6 ? cells[column] + padding : padding + cells[column]
    }.joined(separator: "  ")
    return String(line.reversed().drop { $0 == " " }.reversed())
  }
  let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
  var text = ([render(header), rule] + lines.map(render)).joined(separator: "\n")
  if threadAllocations() == nil { text += "\n(allocations are not counted on this platform)" }
  return text
}

/// The workloads' results as JSON objects, for `json(_:workloads:mode:)`.
func workloadObjects(_ results: [WorkloadResult]) -> [String] {
  results.map { result in
    let fields = [
      "\"workload\": \(jsonString(result.workload))",
      "\"implementation\": \(jsonString(result.implementation))",
      "\"nsPerIteration\": \(jsonNumber(result.nanoseconds))",
      "\"relativeToOurs\": \(jsonNumber(result.relativeToOurs))",
      "\"allocationsPerIteration\": \(jsonNumber(result.allocations))",
      "\"effectRunsPerIteration\": \(jsonNumber(result.effectRuns))",
      "\"notRun\": \(result.notRun.map(jsonString) ?? "null")",
    ]
    return "    {" + fields.joined(separator: ", ") + "}"
  }
}
