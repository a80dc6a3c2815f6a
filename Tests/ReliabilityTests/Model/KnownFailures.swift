/// The seeds of the model-based random programs (their default range, which CI runs) that fail
/// because of a defect on file, with the defect: each fails as a known issue, and a listed seed
/// that passes fails the test, so that fixing a defect means deleting its seeds here.
///
/// Each defect has a deterministic test of its own in `Fuzz/DynamicGraphDefectsTests.swift`.
/// Seeds outside the default range (`RELIABILITY_SEED`, `RELIABILITY_PROGRAMS`) are not listed.
enum KnownFailures {
  /// `DynamicGraphDefectsTests.sinkWriteIntoAnotherDomainIsDeliveredInOrder`.
  static let nestedDeliveryAhead =
    "a sink's write into a free domain is delivered before its earlier queued writes, and a "
    + "computed property switching into that domain skips a state "
    + "(DynamicGraphDefectsTests.sinkWriteIntoAnotherDomainIsDeliveredInOrder)"

  static let engine: [UInt64: String] = [:]

  static let publicLayers: [UInt64: String] = [
    1_592_590_357: nestedDeliveryAhead,
    1_592_590_466: nestedDeliveryAhead,
    1_592_590_472: nestedDeliveryAhead,
    1_592_593_196: nestedDeliveryAhead,
  ]
}
