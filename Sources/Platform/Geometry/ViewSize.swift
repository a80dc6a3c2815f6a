/// A width and a height: the headless counterpart of `CGSize`.
public struct ViewSize: Hashable, Sendable {
  /// The extent along the horizontal axis.
  public var width: Double
  /// The extent along the vertical axis.
  public var height: Double

  /// Creates a size from its extents.
  ///
  /// - Parameters:
  ///   - width: The extent along the horizontal axis.
  ///   - height: The extent along the vertical axis.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The empty size, `0 x 0`.
  public static let zero = ViewSize(width: 0, height: 0)
}

extension ViewSize: CustomStringConvertible {
  /// The size as `width x height`.
  public var description: String { "\(width) x \(height)" }
}
