/// One row of the processes panel, rounded as shown.
public struct ProcessRow: Hashable, Sendable {
  /// The process ID.
  public var id: Int
  /// The command name.
  public var name: String
  /// The state letter.
  public var state: Character
  /// CPU used, in percent of one core, with one decimal: `84.0`.
  public var cpu: String
  /// Resident memory: `12 MiB`.
  public var memory: String

  /// Rounds `usage` for display.
  ///
  /// - Parameter usage: The process to show.
  public init(_ usage: ProcessUsage) {
    id = usage.id
    name = usage.name
    state = usage.state
    cpu = TextLayout.fixed(usage.cpuPercent, digits: 1)
    memory = TextLayout.bytes(kibibytes: usage.residentKiB)
  }
}
