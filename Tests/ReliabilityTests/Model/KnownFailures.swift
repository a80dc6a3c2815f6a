/// The seeds of the model-based random programs (their default range, which CI runs) that fail
/// because of a defect on file, with the defect: each fails as a known issue, and a listed seed
/// that passes fails the test, so that fixing a defect means deleting its seeds here.
///
/// Each defect has a deterministic test of its own in `Fuzz/DynamicGraphDefectsTests.swift`.
/// Seeds outside the default range (`RELIABILITY_SEED`, `RELIABILITY_PROGRAMS`) are not listed.
enum KnownFailures {
  static let engine: [UInt64: String] = [:]

  static let publicLayers: [UInt64: String] = [:]
}
