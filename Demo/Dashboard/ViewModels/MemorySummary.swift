/// The memory panel's figures, rounded as the panel shows them, so that a change too small to
/// see is no change at all.
public struct MemorySummary: Hashable, Sendable {
  /// Memory in use by programs, such as `0.6 GiB`.
  public var used: String
  /// All usable memory.
  public var total: String
  /// Memory available to new programs.
  public var available: String
  /// The file cache and buffers together.
  public var cache: String
  /// Memory in use, in whole percent of the total.
  public var usedPercent: Int

  /// Rounds `memory` for display.
  ///
  /// Every figure takes the unit of the total (GiB with one decimal on any machine with a
  /// gigabyte or more), so that the panel changes when memory use moves by a visible amount,
  /// not at every reading.
  ///
  /// - Parameter memory: The figures to show.
  public init(_ memory: MemoryInfo) {
    func format(_ kibibytes: UInt64) -> String {
      TextLayout.bytes(kibibytes: kibibytes, unitOf: memory.total)
    }
    used = format(memory.used)
    total = format(memory.total)
    available = format(memory.available)
    cache = format(memory.cached + memory.buffers)
    usedPercent =
      memory.total == 0 ? 0 : Int((100 * Double(memory.used) / Double(memory.total)).rounded())
  }
}
