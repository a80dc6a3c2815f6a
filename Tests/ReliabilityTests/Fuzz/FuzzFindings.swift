import Testing

/// What the concurrent fuzz can find, each with the rule it breaks, and whether it is a known
/// defect (a known issue, not a failure) or only reported (the contract does not say).
enum FuzzFinding: String, CaseIterable, Sendable {
  case staleRead
  case staleReadInBatch
  case tornOwnRead
  case tornRead
  case inconsistentRead
  case lateFirstValue
  case sinkTorn
  case sinkInconsistent
  case sinkBackwardsAfterFirst
  case sinkBackwards
  case sinkOverlap
  case finalValue
  case finalSink
  case privateProgram
  case privateProgramAlone
  case deadlock

  var what: String {
    switch self {
    case .staleRead:
      return
        "a read gave a value computed from an older write of a relay than one the reading "
        + "thread had made or read before (rules 1 and 13: a read computes from the newest "
        + "values)"
    case .staleReadInBatch:
      return
        "inside a batch, a read gave a value computed from an older write of a relay than one "
        + "the reading thread had made or read before (rule 2: reads see the batch's writes)"
    case .tornOwnRead:
      return
        "a read combined two values of a relay that only the reading thread writes (rule 3; "
        + "the older of them is older than the thread's own write: a stale read too)"
    case .tornRead:
      return
        "a read combined two values of a relay other threads were writing meanwhile, or does "
        + "not match its recipe on relays other threads were writing (the contract says "
        + "nothing of reads racing writers; reported, not judged)"
    case .inconsistentRead:
      return
        "a read's payload is not its recipe evaluated on the relay values it was computed "
        + "from (a branch taken for other values than those read)"
    case .lateFirstValue:
      return "subscribe returned before the sink had its first value (rule 11)"
    case .sinkTorn:
      return "a sink got a value combining two values of one relay (rule 3)"
    case .sinkInconsistent:
      return "a sink got a value whose payload is not its recipe on what it was computed from"
    case .sinkBackwardsAfterFirst:
      return
        "a sink's second value is computed from an older write of a relay than its first "
        + "(rule 11: never an older value after a newer)"
    case .sinkBackwards:
      return
        "a sink got a relay's value older than one it had got before, after its second call "
        + "(rules 4 and 11)"
    case .sinkOverlap: return "a sink ran concurrently with itself (rule 5)"
    case .finalValue:
      return "after the writers stopped, a node reads other than its recipe on the final values"
    case .finalSink:
      return "after the writers stopped, a sink's last value is not its node's value (rule 5)"
    case .privateProgram:
      return
        "a thread's private model program disagreed with the model under the other threads' "
        + "load, and passes when run alone"
    case .privateProgramAlone:
      return
        "a thread's private model program disagreed with the model, and does alone too (a "
        + "single-thread defect the model-based tests report)"
    case .deadlock: return "the threads did not finish (a deadlock or a livelock)"
    }
  }

  /// The defect on file that explains it, if any: a known issue until fixed. None is known
  /// now; add a case when the fuzz finds a defect that cannot be fixed at once, and delete it
  /// with the fix. (The last, `sinkBackwards`, was a first value that reused a
  /// `flatMapLatest`'s choice without reading its outer property: see
  /// `DynamicGraphDefectsTests.firstValueThroughAnEarlierSwitchChoiceNotesTheSelector`.)
  var knownDefect: String? { nil }

  /// Only counted, never a failure.
  var isReportOnly: Bool { self == .tornRead || self == .privateProgramAlone }
}

/// What the fuzz found, from every thread: a count per finding, and the first few examples.
/// (Behind the engine's `Lock`, which ThreadSanitizer understands, not `Mutex`, whose
/// accesses it reports as races.)
final class FuzzFindings: Sendable {
  private struct Entry {
    var count = 0
    var examples: [String] = []
  }
  private let entries = Guarded<[FuzzFinding: Entry]>([:])

  func record(_ finding: FuzzFinding, _ example: @autoclosure () -> String) {
    entries.withLock { entries in
      entries[finding, default: Entry()].count += 1
      if entries[finding]!.examples.count < 3 { entries[finding]!.examples.append(example()) }
    }
  }

  func count(_ finding: FuzzFinding) -> Int { entries.withLock { $0[finding]?.count ?? 0 } }

  /// Records an issue per finding (a known issue for a known defect), naming `seed` and the
  /// rate against `opportunities`; a report-only finding is printed.
  func report(seed: UInt64, reads: Int, sinkCalls: Int) {
    let all = entries.withLock { $0 }
    for finding in FuzzFinding.allCases {
      guard let entry = all[finding] else { continue }
      let base = finding.rawValue.hasPrefix("sink") ? sinkCalls : reads
      let message = """
        Fuzz seed \(seed): \(finding.rawValue), \(entry.count) times (\(base) \
        \(base == sinkCalls ? "sink calls" : "reads")): \(finding.what). First: \
        \(entry.examples.joined(separator: " | "))
        """
      if finding.isReportOnly {
        print(message)
      } else if let defect = finding.knownDefect {
        withKnownIssue(Comment(rawValue: defect), isIntermittent: true) {
          Issue.record(Comment(rawValue: message))
        }
      } else {
        Issue.record(Comment(rawValue: message))
      }
    }
  }
}
