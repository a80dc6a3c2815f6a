extension RenderLoop {
  /// Running totals of a render loop's work, for dashboards and benchmarks.
  public struct Statistics: Hashable, Sendable {
    /// Ticks run.
    public var ticks = 0
    /// Ticks that found nothing to do.
    public var idleTicks = 0
    /// Views that ran `updateProperties()`, over all ticks.
    public var propertyUpdates = 0
    /// Views that ran `updateConstraints()`, over all ticks.
    public var constraintUpdates = 0
    /// Views that ran `layoutSubviews()`, over all ticks.
    public var layouts = 0
    /// Views that rendered their output, over all ticks.
    public var displays = 0

    /// Creates statistics with every counter at zero.
    public init() {}

    mutating func record(_ frame: Frame) {
      ticks += 1
      if frame.isIdle { idleTicks += 1 }
      propertyUpdates += frame.propertyUpdates
      constraintUpdates += frame.constraintUpdates
      layouts += frame.layouts
      displays += frame.displays
    }
  }
}
