import Invalidating

/// The dashboard's root view: lays out the header and the three panels in its bounds.
///
/// ```
/// header                                                          (one row, full width)
/// cpu (half the width, a row per core + 2)  memory (the other half, 5 rows)
/// processes                                            (full width, the rows left below)
/// ```
///
/// The processes panel takes the rows left below the others, or none when fewer than
/// ``processesMinimumHeight`` are left.
///
/// Whoever hosts the view gives it its size: ``fittingSize`` for printed frames, the
/// terminal's size in live mode. A new size lays the panels out again, and only the panels
/// whose frame it changed redraw.
@MainActor
public final class DashboardView: PanelView {
  /// The top line.
  public let header: HeaderView
  /// The CPU bars.
  public let cpu: CPUPanelView
  /// The memory figures.
  public let memory: MemoryPanelView
  /// The busiest processes.
  public let processes: ProcessPanelView

  /// The width of ``fittingSize``, in characters: the width of the printed frames.
  public static let fittingWidth = 80.0

  /// Creates the root view and adds the panels, each reading `model`, to it.
  ///
  /// - Parameters:
  ///   - model: The view model the panels read.
  ///   - log: Where the views report.
  public init(model: SystemViewModel, log: InvalidationLog) {
    header = HeaderView(model: model, log: log)
    cpu = CPUPanelView(model: model, log: log)
    memory = MemoryPanelView(model: model, log: log)
    processes = ProcessPanelView(model: model, log: log)
    super.init(name: "root", model: model, log: log)
    for panel in panels { addSubview(panel) }
  }

  /// The panels, in drawing order.
  public var panels: [PanelView] { [header, cpu, memory, processes] }

  /// The size that shows every panel and as many processes as the view model lists,
  /// ``fittingWidth`` columns wide.
  ///
  /// It is read from the view model, which is current as soon as a reading is written: the
  /// panels copy what they show in the next properties pass, after the host sized the root.
  public var fittingSize: ViewSize {
    let cpuHeight = CPUPanelView.height(coreCount: model.coreCount.value)
    return ViewSize(
      width: Self.fittingWidth,
      height: Self.processesTop(cpuHeight: cpuHeight) + Double(model.processLimit + 2))
  }

  /// The CPU panel's height: a row per core, and two.
  private var cpuHeight: Double {
    // A change of it reaches this view through invalidateIntrinsicContentSize(), as in UIKit.
    // Tracked, the read would make the layout pass follow the panel's core count as well, and
    // a change of it would ask for layout twice.
    untracked { cpu.intrinsicContentSize.height }
  }

  /// The fewest rows the processes panel is shown in: its title, the column names and one
  /// process. With fewer rows left below the other panels, it is not shown at all.
  public static let processesMinimumHeight = 3.0

  /// The top of the processes panel: below the header, a blank row, the taller of the CPU and
  /// memory panels, and another blank row.
  static func processesTop(cpuHeight: Double) -> Double {
    2 + max(cpuHeight, MemoryPanelView.height) + 1
  }

  /// Places the panels in the bounds: the header on top, CPU and memory side by side, processes
  /// in the rows left below.
  override public func layoutSubviews() {
    let width = bounds.width
    let half = (width / 2).rounded(.down)
    let cpuHeight = self.cpuHeight
    header.frame = ViewRect(x: 0, y: 0, width: width, height: 1)
    cpu.frame = ViewRect(x: 0, y: 2, width: half, height: cpuHeight)
    memory.frame = ViewRect(x: half, y: 2, width: width - half, height: MemoryPanelView.height)
    let top = Self.processesTop(cpuHeight: cpuHeight)
    let rowsLeft = max(0, bounds.height - top)
    processes.frame = ViewRect(
      x: 0, y: top, width: width, height: rowsLeft >= Self.processesMinimumHeight ? rowsLeft : 0)
  }
}
