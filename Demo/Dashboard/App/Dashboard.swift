import Invalidating

/// The terminal dashboard: a view model, the views bound to it, and the render loop that draws
/// them.
///
/// Feed it readings with ``show(_:)``; each one is written to the view model, whose changes
/// reach the views through bindings, and one tick of the render loop redraws only the views
/// that were invalidated. ``screen`` composites the result.
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
  private var bindings: [SubscriptionToken] = []
  private var framesShown = 0
  /// Display passes of the panels in the frames shown.
  private var panelRenders = 0
  private var primed = 0

  /// Builds the views and binds them to a new view model.
  ///
  /// - Parameter processLimit: How many of the busiest processes to list.
  public init(processLimit: Int = 5) {
    viewModel = SystemViewModel(processLimit: processLimit)
    let header = HeaderView(headline: viewModel.headline, log: log)
    rootView = DashboardView(header: header, processLimit: processLimit, log: log)
    renderLoop.addRootView(rootView)
    bindings = [
      header.invalidate(.display, whenever: viewModel.headline),
      viewModel.coreCount.bind(to: rootView.cpu, \.coreCount),
      viewModel.corePercents.bind(to: rootView.cpu, \.corePercents),
      viewModel.totalPercent.bind(to: rootView.cpu, \.totalPercent),
      viewModel.memorySummary.bind(to: rootView.memory, \.summary),
      viewModel.processRows.bind(to: rootView.processes, \.rows),
    ]
  }

  /// What one reading did to the views.
  public struct Frame: Hashable, Sendable {
    /// The reading's number, from 1.
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
    rootView.frame.size = rootView.fittingSize
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
      frames: framesShown, readings: framesShown + primed, panels: rootView.panels.count,
      writes: viewModel.writeCount,
      invalidationsByEvent: log.totals.filter { $0.key != "render" },
      renders: renderLoop.statistics.displays, panelRenders: panelRenders)
  }
}
