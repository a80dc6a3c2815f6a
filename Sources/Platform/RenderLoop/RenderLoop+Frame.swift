extension RenderLoop {
  /// What one tick of a render loop did.
  public struct Frame: Hashable, Sendable {
    /// How many views ran `updateConstraints()`.
    public var constraintUpdates = 0
    /// How many views ran `layoutSubviews()`.
    public var layouts = 0
    /// How many views rendered their output.
    public var displays = 0

    /// Creates a frame record.
    ///
    /// - Parameters:
    ///   - constraintUpdates: How many views ran `updateConstraints()`.
    ///   - layouts: How many views ran `layoutSubviews()`.
    ///   - displays: How many views rendered their output.
    public init(constraintUpdates: Int = 0, layouts: Int = 0, displays: Int = 0) {
      self.constraintUpdates = constraintUpdates
      self.layouts = layouts
      self.displays = displays
    }

    /// Whether the tick found nothing to do.
    public var isIdle: Bool { constraintUpdates == 0 && layouts == 0 && displays == 0 }
  }
}
