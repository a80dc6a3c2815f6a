// The CoreGraphics types UIKit and AppKit re-export, reduced to what the sources use.
// `CGFloat` is a struct in the SDK; a type alias keeps the stub small and accepts the same
// literals.

/// Stand-in for CoreGraphics' `CGFloat`.
public typealias CGFloat = Double

/// Stand-in for CoreGraphics' `CGPoint`.
public struct CGPoint: Hashable, Sendable {
  /// The horizontal coordinate.
  public var x: CGFloat
  /// The vertical coordinate.
  public var y: CGFloat

  /// Creates a point.
  ///
  /// - Parameters:
  ///   - x: The horizontal coordinate.
  ///   - y: The vertical coordinate.
  public init(x: CGFloat, y: CGFloat) {
    self.x = x
    self.y = y
  }

  /// The origin.
  public static let zero = CGPoint(x: 0, y: 0)
}

/// Stand-in for CoreGraphics' `CGSize`.
public struct CGSize: Hashable, Sendable {
  /// The width.
  public var width: CGFloat
  /// The height.
  public var height: CGFloat

  /// Creates a size.
  ///
  /// - Parameters:
  ///   - width: The width.
  ///   - height: The height.
  public init(width: CGFloat, height: CGFloat) {
    self.width = width
    self.height = height
  }

  /// The empty size.
  public static let zero = CGSize(width: 0, height: 0)
}

/// Stand-in for CoreGraphics' `CGRect`.
public struct CGRect: Hashable, Sendable {
  /// The top-left corner.
  public var origin: CGPoint
  /// The width and height.
  public var size: CGSize

  /// Creates a rectangle.
  ///
  /// - Parameters:
  ///   - origin: The top-left corner.
  ///   - size: The width and height.
  public init(origin: CGPoint, size: CGSize) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from coordinates.
  ///
  /// - Parameters:
  ///   - x: The left edge.
  ///   - y: The top edge.
  ///   - width: The width.
  ///   - height: The height.
  public init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
    self.init(origin: CGPoint(x: x, y: y), size: CGSize(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = CGRect(origin: .zero, size: .zero)
}
