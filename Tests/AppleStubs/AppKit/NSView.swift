/// Stand-in for AppKit's `NSResponder`, an `NSObject` subclass as in the SDK.
@MainActor
open class NSResponder: NSObject {
  /// Creates a responder.
  public override init() { super.init() }

  /// Marks the responder's restorable state as dirty.
  open func invalidateRestorableState() {}
}

/// Stand-in for AppKit's `NSView`: the members the package's sources use.
@MainActor
open class NSView: NSResponder {
  /// The frame, in the superview's coordinate space.
  open var frame: NSRect
  /// The bounds, in the view's own coordinate space.
  open var bounds: NSRect {
    get { NSRect(origin: .zero, size: frame.size) }
    set { frame.size = newValue.size }
  }
  /// The superview.
  open var superview: NSView? { nil }
  /// The subviews.
  open var subviews: [NSView] = []
  /// The natural size of the view's content.
  open var intrinsicContentSize: NSSize { .zero }

  /// Whether a layout pass is pending.
  open var needsLayout = false
  /// Whether a display pass is pending.
  open var needsDisplay = false
  /// Whether a constraints pass is pending.
  open var needsUpdateConstraints = false

  /// Creates a view.
  ///
  /// - Parameter frameRect: The frame.
  public init(frame frameRect: NSRect) {
    frame = frameRect
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
  open func addSubview(_ view: NSView) {}
  /// Removes the view from its superview.
  open func removeFromSuperview() {}

  /// Lays out the subviews.
  open func layout() {}
  /// Runs the pending layout passes of the subtree now.
  open func layoutSubtreeIfNeeded() {}

  /// Requests a display pass for a region.
  ///
  /// - Parameter invalidRect: The region.
  open func setNeedsDisplay(_ invalidRect: NSRect) {}
  /// Runs a pending display pass now.
  open func displayIfNeeded() {}
  /// Draws the view.
  ///
  /// - Parameter dirtyRect: The region to draw.
  open func draw(_ dirtyRect: NSRect) {}

  /// Updates the constraints.
  open func updateConstraints() {}
  /// Runs the pending constraints passes of the subtree now.
  open func updateConstraintsForSubtreeIfNeeded() {}

  /// Tells Auto Layout that the intrinsic content size changed.
  open func invalidateIntrinsicContentSize() {}
}
