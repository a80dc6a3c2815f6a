import Invalidating

/// The terminal dashboard: a view model, the views that read it, and the render loop that
/// draws them.
///
/// Feed it readings with ``show(_:)``; each one is written to the view model, the panels whose
/// passes read something it changed are asked for those passes again (no binding connects
/// them: the passes track what they read), and one tick of the render loop redraws only the
/// panels that were invalidated. ``resize(to:)`` gives the root view a new size the same way.
/// ``screen`` composites the result.
///
/// ```swift
/// let dashboard = Dashboard()
/// let frame = dashboard.show(try source.nextSnapshot()!)
/// print(dashboard.screen)
/// ```
@MainActor
public final class Dashboard {
  /// The state the views show.
  public let viewModel: SystemViewModel
  /// The root of the views.
  public let rootView: DashboardView
  /// The loop that lays out and renders the views.
  public let renderLoop = RenderLoop()
  /// Every invalidation and render of the views, in order.
  public let log = InvalidationLog()
  /// The size the root view takes for the next frame: a terminal's, in live mode, or `nil`
  /// (the default) for the root's ``DashboardView/fittingSize``.
  public var size: ViewSize?
  private var framesShown = 0
  private var resizes = 0
  /// Display passes of the panels in the frames shown and the resizes.
  private var panelRenders = 0
  private var primed = 0

  /// Builds the views on a new view model.
  ///
  /// - Parameter processLimit: How many of the busiest processes the view model lists.
  public init(processLimit: Int = 5) {
    viewModel = SystemViewModel(processLimit: processLimit)
    rootView = DashboardView(model: viewModel, log: log)
    renderLoop.addRootView(rootView)
  }

  /// What one reading or resize did to the views.
  public struct Frame: Hashable, Sendable {
    /// The number of the reading shown, from 1.
    public var number: Int
    /// The panels that rendered, in drawing order.
    public var redrawn: [String]
    /// What the render loop's tick did.
    public var tick: RenderLoop.Frame

    /// The panels redrawn, as `cpu, memory`, or `nothing`.
    public var redrawnDescription: String {
      redrawn.isEmpty ? "nothing" : redrawn.joined(separator: ", ")
    }
  }

  /// Takes a reading without drawing: the first reading, which usage figures are measured from.
  ///
  /// - Parameter snapshot: The reading.
  public func prime(with snapshot: SystemSnapshot) {
    primed += 1
    viewModel.apply(snapshot)
  }

  /// Takes a reading and draws the views it changed.
  ///
  /// - Parameter snapshot: The reading.
  /// - Returns: What was redrawn.
  @discardableResult
  public func show(_ snapshot: SystemSnapshot) -> Frame {
    framesShown += 1
    // The log holds one frame's entries: a long --live run does not grow it.
    log.removeAll()
    viewModel.apply(snapshot)
    rootView.frame.size = size ?? rootView.fittingSize
    return draw()
  }

  /// Gives the root view a new size, from now on, and draws the views it changed: the root
  /// lays the panels out again, and a panel redraws only if its frame changed size.
  ///
  /// - Parameter size: The new size, such as a terminal's after it was resized.
  /// - Returns: What was redrawn.
  @discardableResult
  public func resize(to size: ViewSize) -> Frame {
    resizes += 1
    log.removeAll()
    self.size = size
    rootView.frame.size = size
    return draw()
  }

  /// Ticks the render loop and reports which panels rendered.
  private func draw() -> Frame {
    let tick = renderLoop.tick()
    let redrawn = log.renders.filter { $0 != rootView.name }
    panelRenders += redrawn.count
    return Frame(number: framesShown, redrawn: redrawn, tick: tick)
  }

  /// The screen as last drawn: every view's output, composited.
  public var screen: String { rootView.compositedText() }

  /// What the engine did so far: writes, invalidations and renders.
  public var statistics: DashboardStatistics {
    DashboardStatistics(
      frames: framesShown, readings: framesShown + primed, resizes: resizes,
      panels: rootView.panels.count, writes: viewModel.writeCount,
      invalidationsByEvent: log.totals.filter { $0.key != "render" },
      renders: renderLoop.statistics.displays, panelRenders: panelRenders)
  }
}
