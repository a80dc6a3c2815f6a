import Foundation
import InvalidatingDashboard

/// The recorded `/proc` readings shipped with the tests (see `Samples/README`).
enum Samples {
  /// How many readings there are.
  static let count = 4

  /// The directory of reading `number`, from 1.
  static func directory(_ number: Int) -> ProcDirectory {
    guard let root = Bundle.module.url(forResource: "Samples", withExtension: nil) else {
      fatalError("the Samples resource is missing from the test bundle")
    }
    return ProcDirectory(path: root.appendingPathComponent("snapshot-\(number)").path)
  }

  /// Reading `number`, parsed.
  static func snapshot(_ number: Int) throws -> SystemSnapshot {
    try directory(number).snapshot()
  }

  /// A source that replays every reading, in order.
  static func source() -> RecordedSource {
    RecordedSource((1...count).map(directory))
  }
}
