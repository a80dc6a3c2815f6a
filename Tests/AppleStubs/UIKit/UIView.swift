/// Stand-in for UIKit's `UIResponder`, an `NSObject` subclass as in the SDK.
@MainActor
open class UIResponder: NSObject {
  /// Creates a responder.
  public override init() { super.init() }
}

/// Stand-in for UIKit's `UIView`: the members the package's sources use.
@MainActor
open class UIView: UIResponder {
  /// The frame, in the superview's coordinate space.
  open var frame: CGRect
  /// The bounds, in the view's own coordinate space.
  open var bounds: CGRect {
    get { CGRect(origin: .zero, size: frame.size) }
    set { frame.size = newValue.size }
  }
  /// The superview.
  open var superview: UIView? { nil }
  /// The subviews.
  open var subviews: [UIView] { [] }
  /// The natural size of the view's content.
  open var intrinsicContentSize: CGSize { .zero }

  /// Creates a view.
  ///
  /// - Parameter frame: The frame.
  public init(frame: CGRect) {
    self.frame = frame
    super.init()
  }

  /// Creates a view from an archive. Required, as in the SDK: a subclass that declares an
  /// initializer of its own must implement it too.
  ///
  /// - Parameter coder: The archive.
  public required init?(coder: NSCoder) {
    frame = .zero
    super.init()
  }

  /// Adds a subview.
  ///
  /// - Parameter view: The subview.
  open func addSubview(_ view: UIView) {}
  /// Removes the view from its superview.
  open func removeFromSuperview() {}

  /// Requests a layout pass.
  open func setNeedsLayout() {}
  /// Runs a pending layout pass now.
  open func layoutIfNeeded() {}
  /// Lays out the subviews.
  open func layoutSubviews() {}

  /// Requests a display pass.
  open func setNeedsDisplay() {}
  /// Requests a display pass for a region.
  ///
  /// - Parameter rect: The region.
  open func setNeedsDisplay(_ rect: CGRect) {}
  /// Draws the view.
  ///
  /// - Parameter rect: The region to draw.
  open func draw(_ rect: CGRect) {}

  /// Requests a properties pass (iOS 26).
  @available(iOS 26.0, tvOS 26.0, *)
  open func setNeedsUpdateProperties() {}
  /// Runs a pending properties pass now (iOS 26).
  @available(iOS 26.0, tvOS 26.0, *)
  open func updatePropertiesIfNeeded() {}
  /// Updates the view's properties from the state it shows (iOS 26).
  @available(iOS 26.0, tvOS 26.0, *)
  open func updateProperties() {}

  /// Requests a constraints pass.
  open func setNeedsUpdateConstraints() {}
  /// Runs a pending constraints pass now.
  open func updateConstraintsIfNeeded() {}
  /// Updates the constraints.
  open func updateConstraints() {}

  /// Tells Auto Layout that the intrinsic content size changed.
  open func invalidateIntrinsicContentSize() {}
}
