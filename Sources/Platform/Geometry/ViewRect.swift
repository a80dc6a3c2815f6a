/// A rectangle: an origin and a size, the headless counterpart of `CGRect`.
///
/// A view's ``HeadlessView/frame`` is a `ViewRect` in its superview's coordinate space; its
/// ``HeadlessView/bounds`` is the same size at the origin of its own space.
public struct ViewRect: Hashable, Sendable {
  /// The top-left corner.
  public var origin: ViewPoint
  /// The width and height.
  public var size: ViewSize

  /// Creates a rectangle from its origin and size.
  ///
  /// - Parameters:
  ///   - origin: The top-left corner.
  ///   - size: The width and height.
  public init(origin: ViewPoint, size: ViewSize) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from the coordinates of its top-left corner and its extents.
  ///
  /// - Parameters:
  ///   - x: The horizontal coordinate of the top-left corner.
  ///   - y: The vertical coordinate of the top-left corner.
  ///   - width: The extent along the horizontal axis.
  ///   - height: The extent along the vertical axis.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: ViewPoint(x: x, y: y), size: ViewSize(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = ViewRect(origin: .zero, size: .zero)

  /// The horizontal coordinate of the left edge.
  public var minX: Double { origin.x }
  /// The vertical coordinate of the top edge.
  public var minY: Double { origin.y }
  /// The horizontal coordinate of the right edge.
  public var maxX: Double { origin.x + size.width }
  /// The vertical coordinate of the bottom edge.
  public var maxY: Double { origin.y + size.height }
  /// The width.
  public var width: Double { size.width }
  /// The height.
  public var height: Double { size.height }
}

extension ViewRect: CustomStringConvertible {
  /// The rectangle as `(x, y, width x height)`.
  public var description: String { "(\(origin.x), \(origin.y), \(size))" }
}
