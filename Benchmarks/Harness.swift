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

/// Where the scenarios' tallies add what their sinks received (when they are released), so
/// the optimizer must keep the work; printed at the end as a checksum.
// Safe: every access happens on the main thread; the threads of the two-thread rows write
// counters of their own, which the main thread adds here after joining them.
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

/// Writes `message` and a newline to the standard error.
func printError(_ message: String) {
  (message + "\n").utf8CString.withUnsafeBufferPointer {
    _ = write(STDERR_FILENO, $0.baseAddress, $0.count - 1)
  }
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
  /// The profiles whose instructions `--instructions` counts for this row, if any.
  var instructions: InstructionProfiles? = nil
  /// The counts, once `--instructions` has taken them.
  var counts: InstructionCounts? = nil

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

/// The report as an aligned text table; with instruction counts, five columns more (ours and
/// the baseline's instructions per operation, their ratio, the target and its result) before
/// the note.
func table(_ rows: [Row]) -> String {
  let counted = rows.contains { $0.counts != nil }
  var header = ["scenario", "ours", "baseline", "ratio", "unit", "target", "result"]
  if counted { header += ["instr", "base instr", "ratio", "instr target", "result"] }
  header.append("note")
  let lines = rows.map { row in
    var cells = [
      row.name, format(row.ours), row.baseline.map { format($0) } ?? "-",
      row.ratio.map { format($0, 2) + "x" } ?? "-", row.unit, row.target,
      row.pass.map { $0 ? "pass" : "MISS" } ?? "info",
    ]
    if counted {
      let counts = row.counts
      cells += [
        counts.map { format($0.ours, 0) } ?? "-",
        counts?.baseline.map { format($0, 0) } ?? "-",
        counts?.ratio.map { format($0, 2) + "x" } ?? "-",
        counts?.target?.text ?? "-",
        counts.map { $0.pass.map { $0 ? "pass" : "MISS" } ?? "info" } ?? "-",
      ]
    }
    return cells + [row.note]
  }
  let widths = header.indices.map { column in
    ([header] + lines).map { $0[column].count }.max() ?? 0
  }
  // Numbers align right: the times and the ratio, and the counts and their ratio.
  let numeric: Set = counted ? [1, 2, 3, 7, 8, 9] : [1, 2, 3]
  func render(_ cells: [String]) -> String {
    let line = cells.indices.map { column in
      let cell = cells[column]
      let padding = String(repeating: " ", count: widths[column] - cell.count)
      return numeric.contains(column) ? padding + cell : cell + padding
    }.joined(separator: "  ")
    return String(line.reversed().drop { $0 == " " }.reversed())
  }
  let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
  return ([render(header), rule] + lines.map(render)).joined(separator: "\n")
}

/// The report as JSON: one object per row, with the same figures as the table, and the
/// workloads' objects (`workloadObjects`) when they ran.
func json(_ rows: [Row], workloads: [String]? = nil, mode: String) -> String {
  let objects = rows.map { row in
    var fields = [
      "\"name\": \(jsonString(row.name))", "\"ours\": \(jsonNumber(row.ours))",
      "\"baseline\": \(jsonNumber(row.baseline))", "\"ratio\": \(jsonNumber(row.ratio))",
      "\"unit\": \(jsonString(row.unit))", "\"target\": \(jsonString(row.target))",
      "\"pass\": \(row.pass.map { $0 ? "true" : "false" } ?? "null")",
      "\"note\": \(jsonString(row.note))",
    ]
    if let counts = row.counts {
      let instructionFields = [
        "\"ours\": \(jsonNumber(counts.ours))", "\"baseline\": \(jsonNumber(counts.baseline))",
        "\"ratio\": \(jsonNumber(counts.ratio))",
        "\"target\": \(counts.target.map { jsonString($0.text) } ?? "null")",
        "\"pass\": \(counts.pass.map { $0 ? "true" : "false" } ?? "null")",
      ]
      fields.append("\"instructions\": {" + instructionFields.joined(separator: ", ") + "}")
    }
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
