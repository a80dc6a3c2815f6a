/// Flushes the pending passes of its root views' trees, once per tick, in UIKit's order.
///
/// A render loop plays the part of a window and of the main run loop's end-of-turn
/// observer. It owns root views (``addRootView(_:)``); a view belongs to the loop of its
/// root. Each ``tick()`` runs, over every tree:
///
/// 1. the properties pass, superviews before their subviews (root first), as UIKit runs
///    `updateProperties()` from iOS 26;
/// 2. the constraints pass, subviews before their superview (leaves first);
/// 3. the layout pass, superviews before their subviews (root first);
/// 4. the display pass, which refreshes each dirty view's ``HeadlessView/renderedText``.
///
/// Each view runs each pass at most once per tick, however many requests it received. Only
/// branches with a pending pass are visited, so an idle tick costs one check per root.
/// Requests made during a pass that has already run this tick wait for the next tick.
///
/// Drive it by hand with ``tick()`` or ``flush(maximumTicks:)`` (tests, services that render
/// on demand), or at a frame rate with ``start(framesPerSecond:frames:)``.
///
/// Loops share nothing: a test makes its own with `RenderLoop()`. ``main`` is a convenience
/// for an app's single screen; no view joins it unless added.
///
/// > Important: A render loop is isolated to the main actor, as its views are.
@MainActor
public final class RenderLoop {
  /// A loop for an app's single screen. Views join it only through ``addRootView(_:)``.
  public static let main = RenderLoop()

  /// The root views this loop flushes, in the order they were added.
  public private(set) var rootViews: [HeadlessView] = []

  /// What the loop has done since it was created or ``resetStatistics()`` was last called.
  public private(set) var statistics = Statistics()

  /// Called on the main actor after every tick, with what that tick did: the place to print a
  /// terminal frame when ``Frame/displays`` is not zero.
  public var didTick: (@MainActor (Frame) -> Void)?

  var driver: Driver?
  var nextDriverID: UInt64 = 0

  /// Creates a loop with no root views.
  public init() {}

  /// Whether any tree of the loop has a pass pending.
  public var needsFlush: Bool {
    rootViews.contains { $0.subtreeNeedsFlush }
  }

  /// Makes a view a root of this loop, so ticks flush its tree.
  ///
  /// The view leaves its superview or previous loop first. Adding a root view twice does
  /// nothing.
  ///
  /// - Parameter view: The root of the tree to flush.
  public func addRootView(_ view: HeadlessView) {
    guard view.hostLoop !== self else { return }
    view.removeFromSuperview()
    rootViews.append(view)
    view.hostLoop = self
  }

  /// Stops flushing a root view's tree. Its pending passes stay pending.
  ///
  /// - Parameter view: A root view of this loop; any other view is ignored.
  public func removeRootView(_ view: HeadlessView) {
    guard view.hostLoop === self else { return }
    rootViews.removeAll { $0 === view }
    view.hostLoop = nil
  }

  /// Runs one frame: the properties, constraints, layout and display passes of every root's
  /// tree.
  ///
  /// - Returns: How many views each pass ran on.
  /// - Complexity: O(*d*) where *d* is the number of views on the branches that lead to a view
  ///   with a pending pass.
  @discardableResult
  public func tick() -> Frame {
    var frame = Frame()
    let roots = rootViews
    for root in roots where root.hostLoop === self {
      frame.propertyUpdates += root.updatePropertiesInSubtree()
    }
    for root in roots where root.hostLoop === self {
      frame.constraintUpdates += root.updateConstraintsInSubtree()
    }
    for root in roots where root.hostLoop === self {
      frame.layouts += root.layOutSubtree()
    }
    for root in roots where root.hostLoop === self {
      frame.displays += root.displaySubtree()
    }
    statistics.record(frame)
    didTick?(frame)
    return frame
  }

  /// Ticks until no pass is pending, for code that wants its views settled now.
  ///
  /// A view whose passes keep requesting passes would never settle; `maximumTicks` bounds the
  /// work.
  ///
  /// - Parameter maximumTicks: The most ticks to run.
  /// - Returns: The number of ticks run; `0` when nothing was pending.
  @discardableResult
  public func flush(maximumTicks: Int = 16) -> Int {
    var ticks = 0
    while ticks < maximumTicks, needsFlush {
      tick()
      ticks += 1
    }
    return ticks
  }

  /// Sets every counter of ``statistics`` back to zero.
  public func resetStatistics() {
    statistics = Statistics()
  }
}
