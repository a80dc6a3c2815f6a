import Synchronization

/// Lines appended from any task, read in order.
final class Log: Sendable {
  private let storage = Mutex<[String]>([])

  func append(_ line: String) { storage.withLock { $0.append(line) } }

  var lines: [String] { storage.withLock { $0 } }
}
