import InvalidatingCore

/// A view without a window server: UIKit's invalidation model, on every platform.
///
/// `HeadlessView` keeps the four deferred passes of `UIView` (iOS 26) and their flags, run in
/// this order:
///
/// | Request                         | Flag                       | Pass (run once, later)      |
/// |---------------------------------|----------------------------|-----------------------------|
/// | ``setNeedsUpdateProperties()``  | ``needsUpdateProperties``  | ``updateProperties()``      |
/// | ``setNeedsUpdateConstraints()`` | ``needsUpdateConstraints`` | ``updateConstraints()``     |
/// | ``setNeedsLayout()``            | ``needsLayout``            | ``layoutSubviews()``        |
/// | ``setNeedsDisplay()``           | ``needsDisplay``           | ``render()``                |
///
/// A request only sets a flag, so a thousand requests cost one pass. The passes run when you
/// call ``updatePropertiesIfNeeded()``, ``updateConstraintsIfNeeded()``, ``layoutIfNeeded()``
/// or ``displayIfNeeded()``, or when the ``RenderLoop`` that hosts the view's root ticks.
///
/// **Automatic invalidation.** While ``updateProperties()``, ``layoutSubviews()`` or
/// ``render()`` runs, every `Property` (or relay, or computed property) whose `value` it reads,
/// and every `@ViewInvalidating` property of another object it reads, is recorded. When one of
/// them changes, the view gets that pass's request (``setNeedsUpdateProperties()``,
/// ``setNeedsLayout()`` or ``setNeedsDisplay()``) on the main actor, once per batch, with no
/// binding to write; each run of the pass records afresh, so a property read only in a branch
/// no longer taken stops counting. This is UIKit's automatic observation tracking (iOS 26),
/// for every `Property`, on every platform. Read without tracking inside `untracked { }`. The display pass produces the view's
/// own output, text by default (a terminal panel, a server-rendered fragment), which stays
/// cached in ``renderedText`` until the next ``setNeedsDisplay()``.
///
/// Every method is `open`, as UIKit's are: a subclass may override ``setNeedsLayout()`` to
/// observe every layout request, provided it calls `super`.
///
/// `HeadlessView` is what ``PlatformView`` names where UIKit and AppKit do not exist, and it
/// conforms to `Invalidatable`, so the engine can batch and deduplicate its invalidations.
///
/// > Important: Like `UIView`, `HeadlessView` is isolated to the main actor. The compiler
/// > enforces it in Swift 6 mode: create, mutate and flush views from `@MainActor` code only.
@MainActor
open class HeadlessView: Invalidatable {
  /// The value of an ``intrinsicContentSize`` dimension the view has no natural extent in.
  public nonisolated static let noIntrinsicMetric: Double = -1

  // MARK: Geometry

  /// The view's rectangle in its superview's coordinate space.
  ///
  /// Changing the size marks the view as needing layout and display, because both its
  /// subviews' frames and its own output depend on it (`UIView` with `contentMode = .redraw`).
  /// Moving the view without resizing it invalidates nothing.
  open var frame: ViewRect {
    didSet {
      guard frame.size != oldValue.size else { return }
      guard _slowPath(Tracing.isOn) else { return boundsSizeDidChange() }
      let context = ThreadContext.current
      let cause = Tracing.set(of: self, property: "frame", declaredAt: nil, context)
      Tracing.with(cause, context) { boundsSizeDidChange() }
    }
  }

  /// The view's rectangle in its own coordinate space: its size, at the origin.
  ///
  /// Setting `bounds` sets the size of ``frame``; headless views do not scroll, so the origin
  /// of `bounds` is always zero.
  open var bounds: ViewRect {
    get { ViewRect(origin: .zero, size: frame.size) }
    set { frame.size = newValue.size }
  }

  // MARK: Hierarchy

  /// The view this view is a subview of, or `nil` for a root view.
  public private(set) weak var superview: HeadlessView?

  /// The view's subviews, back to front: later subviews are composited over earlier ones.
  public private(set) var subviews: [HeadlessView] = []

  /// The render loop that hosts this view's root, if any. Only set on root views.
  weak var hostLoop: RenderLoop?

  // MARK: Invalidation state

  /// Whether a properties pass is pending: set by ``setNeedsUpdateProperties()``, cleared just
  /// before ``updateProperties()`` runs.
  public internal(set) var needsUpdateProperties = false

  /// Whether a layout pass is pending: set by ``setNeedsLayout()``, cleared just before
  /// ``layoutSubviews()`` runs.
  public internal(set) var needsLayout = false

  /// Whether a display pass is pending: set by ``setNeedsDisplay()``, cleared just before
  /// ``render()`` runs.
  public internal(set) var needsDisplay = false

  /// Whether a constraints pass is pending: set by ``setNeedsUpdateConstraints()``, cleared
  /// just before ``updateConstraints()`` runs.
  public internal(set) var needsUpdateConstraints = false

  /// Whether this view or one of its descendants has a pass pending. Set on the way up by
  /// every request, so a flush only walks the dirty branches of the tree.
  var subtreeNeedsFlush = false

  /// What the tracked passes read, once a pass has run (see "Automatic invalidation").
  var invalidationTracker: InvalidationTracker?

  /// The output of the last display pass: what ``render()`` returned. Empty until the view is
  /// first displayed.
  public internal(set) var renderedText = ""

  // MARK: Creating a view

  /// Creates a view with the given frame. The view needs a properties update, layout and
  /// display, as a new `UIView` does.
  ///
  /// - Parameter frame: The view's rectangle in its future superview's coordinate space.
  public init(frame: ViewRect) {
    self.frame = frame
    needsUpdateProperties = true
    needsLayout = true
    needsDisplay = true
    subtreeNeedsFlush = true
  }

  /// Creates a view with an empty frame at the origin.
  public convenience init() {
    self.init(frame: .zero)
  }

  // MARK: Managing the hierarchy

  /// Adds a view at the end of the subviews, above its siblings.
  ///
  /// The view is first removed from its current superview (or render loop, for a root view).
  /// The receiver is marked as needing layout, as in UIKit, and pending passes of the added
  /// subtree are now flushed with the receiver's tree.
  ///
  /// - Parameter view: The view to add. It must not be the receiver or one of its ancestors.
  open func addSubview(_ view: HeadlessView) {
    insertSubview(view, at: subviews.count - (view.superview === self ? 1 : 0))
  }

  /// Inserts a view among the subviews at the given index.
  ///
  /// - Parameters:
  ///   - view: The view to insert. It must not be the receiver or one of its ancestors.
  ///   - index: Its index in ``subviews`` once inserted; `0` is the back.
  open func insertSubview(_ view: HeadlessView, at index: Int) {
    if isDescendant(of: view) {
      Engine.misuse(
        """
        A view cannot be a subview of itself or of one of its own subviews: remove it from \
        its place in the hierarchy first, or add a different view.
        """)
    }
    view.detach()
    if !(0...subviews.count).contains(index) {
      Engine.misuse(
        """
        insertSubview(_:at:) was given index \(index) for a view with \(subviews.count) \
        subviews: the index must be between 0 and \(subviews.count) (addSubview appends).
        """)
    }
    subviews.insert(view, at: index)
    view.superview = self
    if view.subtreeNeedsFlush { propagateFlushRequest() }
    setNeedsLayout()
  }

  /// Removes the view from its superview, or from its render loop if it is a root view.
  ///
  /// From then on, none of the view's pending passes runs in its former tree's flushes. The
  /// former superview is marked as needing layout.
  open func removeFromSuperview() {
    let formerSuperview = superview
    detach()
    formerSuperview?.setNeedsLayout()
  }

  /// Whether the receiver is `view` or one of its descendants.
  ///
  /// - Parameter view: The candidate ancestor.
  /// - Returns: `true` when `view` is the receiver or above it in its tree.
  public func isDescendant(of view: HeadlessView) -> Bool {
    var candidate: HeadlessView? = self
    while let current = candidate {
      if current === view { return true }
      candidate = current.superview
    }
    return false
  }

  // MARK: Properties

  /// Marks the view as needing its properties updated; ``updateProperties()`` runs once at the
  /// next flush, before constraints and layout.
  ///
  /// Reads inside ``updateProperties()`` are tracked (see "Automatic invalidation"), so a view
  /// rarely needs to call this itself: a change of what the last pass read calls it.
  open func setNeedsUpdateProperties() {
    needsUpdateProperties = true
    propagateFlushRequest()
    if _slowPath(Tracing.isOn) {
      tracker.noteRequest(of: .updateProperties, on: self, call: "setNeedsUpdateProperties()")
    }
  }

  /// Runs the pending properties passes of the view and its subtree now, parents before
  /// their subviews.
  open func updatePropertiesIfNeeded() {
    _ = updatePropertiesInSubtree()
  }

  /// Copies model state into the view's properties (text, colors, subviews' configuration).
  /// Override it; the default implementation does nothing.
  ///
  /// It runs before the constraints and layout passes, so what it sets is laid out and
  /// displayed in the same frame. Every `Property` it reads is tracked: when one changes, the
  /// pass runs again. Never call it directly: call ``setNeedsUpdateProperties()``.
  open func updateProperties() {}

  // MARK: Layout

  /// Marks the view as needing layout; ``layoutSubviews()`` runs once at the next flush.
  ///
  /// Call it when something that positions the subviews changes. It returns at once; any
  /// number of calls before the flush cost one layout pass.
  open func setNeedsLayout() {
    needsLayout = true
    propagateFlushRequest()
    if _slowPath(Tracing.isOn) {
      tracker.noteRequest(of: .layout, on: self, call: "setNeedsLayout()")
    }
  }

  /// Runs the pending properties, constraints and layout passes of the view and its subtree
  /// now.
  ///
  /// Properties are updated first (root first), constraints next (leaves first), then
  /// ``layoutSubviews()`` runs on every
  /// view of the subtree that needs layout, parents before their subviews, so a parent can
  /// resize a subview and have it laid out in the same call. Views that need no layout are
  /// skipped.
  open func layoutIfNeeded() {
    _ = updatePropertiesInSubtree()
    _ = updateConstraintsInSubtree()
    _ = layOutSubtree()
  }

  /// Positions the subviews. Override it; the default implementation does nothing.
  ///
  /// Every `Property` it reads is tracked: when one changes, the view needs layout again.
  /// Never call it directly: call ``setNeedsLayout()`` and let the flush run it once.
  open func layoutSubviews() {}

  // MARK: Display

  /// Marks the view as needing display; ``render()`` runs once at the next flush and its
  /// output replaces ``renderedText``.
  open func setNeedsDisplay() {
    needsDisplay = true
    propagateFlushRequest()
    if _slowPath(Tracing.isOn) {
      tracker.noteRequest(of: .display, on: self, call: "setNeedsDisplay()")
    }
  }

  /// Marks a region of the view as needing display.
  ///
  /// A headless view renders whole, so this is ``setNeedsDisplay()``; it exists so that code
  /// written for `UIView.setNeedsDisplay(_:)` compiles against ``PlatformView`` everywhere.
  ///
  /// - Parameter invalidRect: The region that changed, in the view's coordinate space.
  open func setNeedsDisplay(_ invalidRect: ViewRect) {
    setNeedsDisplay()
  }

  /// Runs the view's pending display pass now: if ``needsDisplay`` is set, clears it, calls
  /// ``render()`` and caches the result in ``renderedText``.
  ///
  /// As `CALayer.displayIfNeeded()`, it displays this view only, not its subviews.
  open func displayIfNeeded() {
    guard needsDisplay else { return }
    needsDisplay = false
    renderedText = runTracked(.display) { render() }
  }

  /// Produces the view's own output: the headless counterpart of `UIView.draw(_:)`.
  ///
  /// Override it to return the view's content, one line per row, for ``bounds``; the display
  /// pass caches it in ``renderedText`` and ``compositedText()`` places it at the view's
  /// position. The subviews render themselves: do not include them. The default returns an
  /// empty string (a transparent view).
  ///
  /// Every `Property` it reads is tracked: when one changes, the view needs display again.
  /// Never call it directly: call ``setNeedsDisplay()`` and let the flush run it once.
  ///
  /// - Returns: The view's output.
  open func render() -> String { "" }

  // MARK: Constraints

  /// Marks the view as needing a constraints pass; ``updateConstraints()`` runs once at the
  /// next flush, before any layout.
  open func setNeedsUpdateConstraints() {
    needsUpdateConstraints = true
    propagateFlushRequest()
  }

  /// Runs the pending constraints passes of the view and its subtree now, subviews before
  /// their superview (leaves first), as UIKit does.
  open func updateConstraintsIfNeeded() {
    _ = updateConstraintsInSubtree()
  }

  /// Updates the view's constraints. Override it; the default implementation does nothing.
  ///
  /// Never call it directly: call ``setNeedsUpdateConstraints()`` and let the flush run it.
  open func updateConstraints() {}

  // MARK: Intrinsic content size

  /// The view's natural size, from its content alone; ``noIntrinsicMetric`` in a dimension it
  /// has none in (the default, in both).
  open var intrinsicContentSize: ViewSize {
    ViewSize(width: Self.noIntrinsicMetric, height: Self.noIntrinsicMetric)
  }

  /// Tells the view that its ``intrinsicContentSize`` changed.
  ///
  /// As Auto Layout does, this asks the superview to lay its subviews out again: the
  /// superview is marked as needing layout. A view without a superview has no one to size it
  /// and nothing happens.
  open func invalidateIntrinsicContentSize() {
    superview?.setNeedsLayout()
  }

  // MARK: Internal

  func boundsSizeDidChange() {
    setNeedsLayout()
    setNeedsDisplay()
  }

  /// Unlinks the view from its superview or render loop without invalidating anyone.
  func detach() {
    if let superview {
      superview.subviews.removeAll { $0 === self }
      self.superview = nil
    }
    hostLoop?.removeRootView(self)
  }

  /// Records on the way to the root that this branch has a pass pending. Stops at the first
  /// ancestor that already knows, so a request costs O(1) once its branch is marked.
  func propagateFlushRequest() {
    var candidate: HeadlessView? = self
    while let view = candidate, !view.subtreeNeedsFlush {
      view.subtreeNeedsFlush = true
      candidate = view.superview
    }
  }
}
