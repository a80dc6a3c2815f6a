import Invalidating

/// `--trace` and `--dot`: the dashboard's printed mode, traced.
///
/// `--trace` prints, after each frame's first line, why each view redrew: every chain of causes
/// of its display pass, from the pass back to the writes of the view model. `--dot` prints
/// nothing but the dependency graph the run went through, as Graphviz DOT, its last frame's
/// change highlighted (`scripts/trace-graph` draws it).
///
/// The options are taken here, before the dashboard's own parsing, so that the library's
/// command line stays as it is.
@MainActor
struct DashboardTrace {
  /// Whether `--trace` was given.
  let printsCauses: Bool
  /// Whether `--dot` was given.
  let printsGraph: Bool
  /// The arguments without `--trace` and `--dot`.
  let otherArguments: [String]

  /// What `--help` adds to the dashboard's usage.
  static let usage = """

      --trace             print, with each frame, why each view redrew
      --dot               print only the graph of the run, in Graphviz DOT
    """

  /// Takes `--trace` and `--dot` out of `arguments`.
  init(_ arguments: [String]) {
    printsCauses = arguments.contains("--trace")
    printsGraph = arguments.contains("--dot")
    otherArguments = arguments.filter { $0 != "--trace" && $0 != "--dot" }
  }

  /// Whether either option was given.
  var isRequested: Bool { printsCauses || printsGraph }

  /// Runs the printed mode, `body`, which writes its frames and report to the `output` it is
  /// given; traced if asked, each frame printed with why its views redrew, or the run's graph
  /// printed at the end instead.
  ///
  /// - Parameter body: The printed mode.
  func run(_ body: (_ output: (String) -> Void) -> Void) {
    guard isRequested else { return body { print($0) } }
    let tracer = Tracer()
    tracer.start()
    defer { tracer.stop() }
    var printedUpTo = 0
    body { text in
      guard printsCauses else { return }
      let records = tracer.records.filter { $0.number > printedUpTo }
      printedUpTo = records.last?.number ?? printedUpTo
      guard text.hasPrefix("frame "), let newline = text.firstIndex(of: "\n") else {
        return print(text)
      }
      print(String(text[..<newline]))
      print(Self.causes(of: records))
      print(String(text[text.index(after: newline)...]))
    }
    if printsGraph {
      print(tracer.graphviz(title: "invalidating-dashboard: the last frame's change in red"))
    }
  }

  /// The lines of the display passes among `records`: why each view redrew.
  static func causes(of records: [TraceRecord]) -> String {
    var seen: Set<String> = []
    var lines: [String] = []
    for record in records where record.event == .pass("render()") {
      for cause in record.causes where seen.insert(cause.description).inserted {
        lines.append("  " + cause.description)
      }
    }
    return lines.isEmpty ? "  (no view redrew)" : lines.joined(separator: "\n")
  }
}
