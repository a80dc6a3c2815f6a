import Invalidating

/// The dashboard's root view: lays out the header and the three panels.
///
/// ```
/// header                                                          (one row, full width)
/// cpu (40 columns, one row per core + 2)   memory (40 columns, 5 rows)
/// processes                                                       (full width)
/// ```
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

  /// The screen's width, in characters.
  public static let width = 80

  /// Creates the root view and adds the panels to it.
  ///
  /// - Parameters:
  ///   - header: The top line.
  ///   - processLimit: How many process rows to make room for.
  ///   - log: Where the views report.
  public init(header: HeaderView, processLimit: Int, log: InvalidationLog) {
    self.header = header
    cpu = CPUPanelView(log: log)
    memory = MemoryPanelView(log: log)
    processes = ProcessPanelView(log: log)
    self.processLimit = processLimit
    super.init(name: "root", log: log)
    for panel in [header, cpu, memory, processes] as [PanelView] { addSubview(panel) }
  }

  private let processLimit: Int

  /// The panels, in drawing order.
  public var panels: [PanelView] { [header, cpu, memory, processes] }

  /// The size that fits every panel: the root takes it before each frame.
  public var fittingSize: ViewSize {
    ViewSize(width: Double(Self.width), height: processesTop + Double(processLimit + 2))
  }

  private var panelsHeight: Double {
    max(cpu.intrinsicContentSize.height, MemoryPanelView.size.height)
  }

  private var processesTop: Double { 2 + panelsHeight + 1 }

  /// Places the panels: the header on top, CPU and memory side by side, processes below.
  override public func layoutSubviews() {
    let half = Double(Self.width / 2)
    header.frame = ViewRect(x: 0, y: 0, width: Double(Self.width), height: 1)
    cpu.frame = ViewRect(x: 0, y: 2, width: half, height: cpu.intrinsicContentSize.height)
    memory.frame = ViewRect(origin: ViewPoint(x: half, y: 2), size: MemoryPanelView.size)
    processes.frame = ViewRect(
      x: 0, y: processesTop, width: Double(Self.width), height: Double(processLimit + 2))
  }
}
