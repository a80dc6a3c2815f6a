/// The CPU panel's figures, rounded as the panel shows them, so that a change too small to see
/// is no change at all.
public struct CPUSummary: Hashable, Sendable {
  /// Each core's usage, in whole percent.
  public var corePercents: [Int]
  /// All cores' usage, in whole percent.
  public var totalPercent: Int

  /// Creates a summary from figures already rounded.
  ///
  /// - Parameters:
  ///   - corePercents: Each core's usage, in whole percent.
  ///   - totalPercent: All cores' usage, in whole percent.
  public init(corePercents: [Int], totalPercent: Int) {
    self.corePercents = corePercents
    self.totalPercent = totalPercent
  }

  /// Rounds busy shares for display.
  ///
  /// - Parameters:
  ///   - coreUsage: Each core's busy share, from 0 to 1.
  ///   - totalUsage: All cores' busy share, from 0 to 1.
  public init(coreUsage: [Double], totalUsage: Double) {
    self.init(corePercents: coreUsage.map(Self.percent), totalPercent: Self.percent(totalUsage))
  }

  /// A busy share from 0 to 1 in whole percent.
  private static func percent(_ share: Double) -> Int {
    Int((share * 100).rounded())
  }
}
