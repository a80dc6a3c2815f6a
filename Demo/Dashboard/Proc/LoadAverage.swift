/// The system load of `/proc/loadavg`: the average number of runnable tasks over 1, 5 and 15
/// minutes, and the task counts.
public struct LoadAverage: Hashable, Sendable {
  /// The 1-minute average.
  public var oneMinute: Double
  /// The 5-minute average.
  public var fiveMinutes: Double
  /// The 15-minute average.
  public var fifteenMinutes: Double
  /// Tasks runnable right now.
  public var runnableTasks: Int
  /// Tasks in existence.
  public var totalTasks: Int

  /// Creates a load record.
  ///
  /// - Parameters:
  ///   - oneMinute: The 1-minute average.
  ///   - fiveMinutes: The 5-minute average.
  ///   - fifteenMinutes: The 15-minute average.
  ///   - runnableTasks: Tasks runnable right now.
  ///   - totalTasks: Tasks in existence.
  public init(
    oneMinute: Double, fiveMinutes: Double, fifteenMinutes: Double,
    runnableTasks: Int = 0, totalTasks: Int = 0
  ) {
    self.oneMinute = oneMinute
    self.fiveMinutes = fiveMinutes
    self.fifteenMinutes = fifteenMinutes
    self.runnableTasks = runnableTasks
    self.totalTasks = totalTasks
  }

  /// Parses the text of `/proc/loadavg`, such as `1.88 0.91 0.42 10/177 21455`.
  ///
  /// - Parameter text: The file's contents.
  /// - Returns: The parsed record, or `nil` when the three averages are not there.
  public init?(parsing text: Substring) {
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count >= 3, let one = Double(fields[0]), let five = Double(fields[1]),
      let fifteen = Double(fields[2])
    else { return nil }
    let tasks = fields.count > 3 ? fields[3].split(separator: "/") : []
    self.init(
      oneMinute: one, fiveMinutes: five, fifteenMinutes: fifteen,
      runnableTasks: tasks.count == 2 ? Int(tasks[0]) ?? 0 : 0,
      totalTasks: tasks.count == 2 ? Int(tasks[1]) ?? 0 : 0)
  }
}
