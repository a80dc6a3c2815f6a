/// Where the dashboard's readings come from: the live `/proc`, recorded samples, or a
/// simulation.
public protocol SystemSource: AnyObject {
  /// A short description for the dashboard's footer and summary: `/proc`, `simulated`, ...
  var name: String { get }

  /// The next reading, or `nil` when the source has no more (recorded samples run out).
  ///
  /// - Throws: An error that says which file could not be read.
  func nextSnapshot() throws -> SystemSnapshot?
}

/// Readings from a directory laid out as `/proc`, taken afresh at each call.
public final class LiveSource: SystemSource {
  /// The directory read.
  public let directory: ProcDirectory
  /// A reading taken already, returned first.
  private var firstReading: SystemSnapshot?

  /// Reads from `directory`.
  ///
  /// - Parameters:
  ///   - directory: The live `/proc` by default.
  ///   - firstReading: A reading of `directory` taken already (to check that it can be read),
  ///     returned as the first one instead of reading again.
  public init(directory: ProcDirectory = ProcDirectory(), firstReading: SystemSnapshot? = nil) {
    self.directory = directory
    self.firstReading = firstReading
  }

  /// The directory's path.
  public var name: String { directory.path }

  /// Reads the directory now.
  ///
  /// - Returns: The reading.
  /// - Throws: ``ProcDirectory/ReadError`` when a system-wide file cannot be read.
  public func nextSnapshot() throws -> SystemSnapshot? {
    if let reading = firstReading.take() { return reading }
    return try directory.snapshot()
  }
}

/// Readings from recorded copies of `/proc`, one directory per reading, in order.
public final class RecordedSource: SystemSource {
  private var remaining: ArraySlice<ProcDirectory>

  /// Replays `directories`, one per call.
  ///
  /// - Parameter directories: The recorded readings, oldest first.
  public init(_ directories: [ProcDirectory]) {
    remaining = directories[...]
  }

  /// `recorded`.
  public var name: String { "recorded" }

  /// Reads the next recorded directory.
  ///
  /// - Returns: The reading, or `nil` once every directory was read.
  /// - Throws: ``ProcDirectory/ReadError`` when a recorded file is missing or malformed.
  public func nextSnapshot() throws -> SystemSnapshot? {
    guard let directory = remaining.popFirst() else { return nil }
    return try directory.snapshot()
  }
}
