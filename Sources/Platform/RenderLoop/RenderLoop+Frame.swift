extension RenderLoop {
  /// What one tick of a render loop did.
  public struct Frame: Hashable, Sendable {
    /// How many views ran `updateProperties()`.
    public var propertyUpdates = 0
    /// How many views ran `updateConstraints()`.
    public var constraintUpdates = 0
    /// How many views ran `layoutSubviews()`.
    public var layouts = 0
    /// How many views rendered their output.
    public var displays = 0

    /// Creates a frame record.
    ///
    /// - Parameters:
    ///   - propertyUpdates: How many views ran `updateProperties()`.
    ///   - constraintUpdates: How many views ran `updateConstraints()`.
    ///   - layouts: How many views ran `layoutSubviews()`.
    ///   - displays: How many views rendered their output.
    public init(
      propertyUpdates: Int = 0, constraintUpdates: Int = 0, layouts: Int = 0, displays: Int = 0
    ) {
      self.propertyUpdates = propertyUpdates
      self.constraintUpdates = constraintUpdates
      self.layouts = layouts
      self.displays = displays
    }

    /// Whether the tick found nothing to do.
    public var isIdle: Bool {
      propertyUpdates == 0 && constraintUpdates == 0 && layouts == 0 && displays == 0
    }
  }
}
