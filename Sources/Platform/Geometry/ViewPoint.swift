/// A location in a view's coordinate space: the headless counterpart of `CGPoint`.
///
/// Coordinates are `Double`s. A terminal user interface reads them as character cells (`x` is
/// the column, `y` the row); a server-rendered fragment may read them as pixels.
public struct ViewPoint: Hashable, Sendable {
  /// The horizontal coordinate, growing to the right.
  public var x: Double
  /// The vertical coordinate, growing downwards, as in UIKit.
  public var y: Double

  /// Creates a point from its coordinates.
  ///
  /// - Parameters:
  ///   - x: The horizontal coordinate.
  ///   - y: The vertical coordinate.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin, `(0, 0)`.
  public static let zero = ViewPoint(x: 0, y: 0)
}

extension ViewPoint: CustomStringConvertible {
  /// The point as `(x, y)`.
  public var description: String { "(\(x), \(y))" }
}
