#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The timing harness: calibrated samples, ours and the baseline interleaved, median reported.

/// How long and how often to measure.
struct Configuration {
  /// Samples per measurement; the median is reported.
  var samples: Int
  /// Wall time one sample should take, in nanoseconds; iterations are calibrated to it.
  var sampleNanoseconds: UInt64

  static let full = Configuration(samples: 15, sampleNanoseconds: 5_000_000)
  static let quick = Configuration(samples: 3, sampleNanoseconds: 1_000_000)
}

/// Where every sink and baseline closure adds what it receives, so the optimizer must keep the
/// work; printed at the end as a checksum.
// Safe: the benchmark is single-threaded; every access happens on the main thread.
nonisolated(unsafe) var consumed = 0

/// Consumes `value` through a call the optimizer cannot see into or delete.
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// The CPU time this thread has used, in nanoseconds. CPU time rather than wall time: the
/// machine is shared, and time spent descheduled is not the code's cost.
@inline(__always)
func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The median of `values` (which must not be empty).
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// A body that performs its operation `iterations` times.
typealias Body = (_ iterations: Int) -> Void

/// Runs `body` with growing iteration counts until one run lasts a sample's time; returns that
/// count.
@inline(never)
func calibrate(_ body: Body, _ configuration: Configuration) -> Int {
  var iterations = 1
  while true {
    let start = now()
    body(iterations)
    let elapsed = now() - start
    if elapsed >= configuration.sampleNanoseconds || iterations >= 1 << 30 { return iterations }
    let scale = elapsed == 0 ? 16 : min(16, max(2, configuration.sampleNanoseconds / elapsed + 1))
    iterations *= Int(scale)
  }
}

/// Times one sample of `iterations` operations; returns nanoseconds per operation.
@inline(never)
func sample(_ body: Body, _ iterations: Int) -> Double {
  let start = now()
  body(iterations)
  let elapsed = now() - start
  return Double(elapsed) / Double(iterations)
}

/// Median nanoseconds per operation of each body. Samples alternate between the bodies, so
/// drift in the machine's speed (other work on the two cores) hits them alike.
@inline(never)
func measure(_ bodies: [Body], _ configuration: Configuration) -> [Double] {
  // Calibrating runs each body for growing counts, and one untimed sample follows: the warm-up
  // is a sample's time whatever the operation costs.
  let counts = bodies.map { body in
    let count = calibrate(body, configuration)
    body(count)
    return count
  }
  var samples = Array(repeating: [Double](), count: bodies.count)
  for _ in 0..<configuration.samples {
    for index in bodies.indices { samples[index].append(sample(bodies[index], counts[index])) }
  }
  return samples.map(median)
}

/// One line of the report.
struct Row {
  /// What is measured.
  var name: String
  /// Ours, in the row's unit (ns/op unless `unit` says otherwise).
  var ours: Double
  /// The hand-written baseline of the same work, if the row has one.
  var baseline: Double?
  /// The target, in words.
  var target: String
  /// Whether the target is met; `nil` for a row measured for information only.
  var pass: Bool?
  var unit = "ns/op"
  /// Extra facts (sink calls, layouts, the unsynchronized floor).
  var note = ""

  var ratio: Double? {
    guard let baseline, baseline > 0 else { return nil }
    return ours / baseline
  }
}

/// Formats `value` with `digits` decimals.
func format(_ value: Double, _ digits: Int = 1) -> String {
  var text = String(Int((value * pow(10, Double(digits))).rounded()))
  guard digits > 0 else { return text }
  let negative = text.hasPrefix("-")
  if negative { text.removeFirst() }
  while text.count <= digits { text = "0" + text }
  text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
  return (negative ? "-" : "") + text
}

/// The report as an aligned text table.
func table(_ rows: [Row]) -> String {
  let header = ["scenario", "ours", "baseline", "ratio", "unit", "target", "result", "note"]
  let lines = rows.map { row in
    [
      row.name, format(row.ours), row.baseline.map { format($0) } ?? "-",
      row.ratio.map { format($0, 2) + "x" } ?? "-", row.unit, row.target,
      row.pass.map { $0 ? "pass" : "MISS" } ?? "info", row.note,
    ]
  }
  let widths = header.indices.map { column in
    ([header] + lines).map { $0[column].count }.max() ?? 0
  }
  func render(_ cells: [String]) -> String {
    cells.indices.map { column in
      let cell = cells[column]
      let padding = String(repeating: " ", count: widths[column] - cell.count)
      return column == 0 || column >= 4 ? cell + padding : padding + cell
    }.joined(separator: "  ")
  }
  let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
  return ([render(header), rule] + lines.map(render)).joined(separator: "\n")
}

/// The report as JSON: one object per row, with the same figures as the table, and the
/// workloads' objects (`workloadObjects`) when they ran.
func json(_ rows: [Row], workloads: [String]? = nil, mode: String) -> String {
  let objects = rows.map { row in
    let fields = [
      "\"name\": \(jsonString(row.name))", "\"ours\": \(jsonNumber(row.ours))",
      "\"baseline\": \(jsonNumber(row.baseline))", "\"ratio\": \(jsonNumber(row.ratio))",
      "\"unit\": \(jsonString(row.unit))", "\"target\": \(jsonString(row.target))",
      "\"pass\": \(row.pass.map { $0 ? "true" : "false" } ?? "null")",
      "\"note\": \(jsonString(row.note))",
    ]
    return "    {" + fields.joined(separator: ", ") + "}"
  }
  var text =
    "{\n  \"mode\": \(jsonString(mode)),\n  \"rows\": [\n" + objects.joined(separator: ",\n")
    + "\n  ]"
  if let workloads {
    text += ",\n  \"workloads\": [\n" + workloads.joined(separator: ",\n") + "\n  ]"
  }
  return text + "\n}"
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
  var escaped = ""
  for character in text {
    switch character {
    case "\"": escaped += "\\\""
    case "\\": escaped += "\\\\"
    default: escaped.append(character)
    }
  }
  return "\"" + escaped + "\""
}

/// `value` as a JSON number, or `null`.
func jsonNumber(_ value: Double?) -> String {
  guard let value, value.isFinite else { return "null" }
  return format(value, 3)
}
