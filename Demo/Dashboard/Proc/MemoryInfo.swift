/// The memory figures of `/proc/meminfo` that the dashboard shows, in kibibytes.
public struct MemoryInfo: Hashable, Sendable {
  /// All usable memory: `MemTotal`.
  public var total: UInt64
  /// Memory available to start new programs without swapping: `MemAvailable`.
  public var available: UInt64
  /// Memory the kernel uses to cache files: `Cached`.
  public var cached: UInt64
  /// Memory used for block-device buffers: `Buffers`.
  public var buffers: UInt64

  /// Creates a memory record, in kibibytes.
  ///
  /// - Parameters:
  ///   - total: All usable memory.
  ///   - available: Memory available to new programs.
  ///   - cached: The file cache.
  ///   - buffers: Block-device buffers.
  public init(total: UInt64, available: UInt64, cached: UInt64 = 0, buffers: UInt64 = 0) {
    self.total = total
    self.available = available
    self.cached = cached
    self.buffers = buffers
  }

  /// Memory in use by programs: what is not available.
  public var used: UInt64 { total - min(total, available) }

  /// Parses the text of `/proc/meminfo`, lines such as `MemTotal:  24684092 kB`.
  ///
  /// Kernels older than 3.14 have no `MemAvailable`; free memory plus the file cache and
  /// buffers stands in for it there.
  ///
  /// - Parameter text: The file's contents.
  /// - Returns: The parsed record, or `nil` when `MemTotal` is missing.
  public init?(parsing text: Substring) {
    var fields: [Substring: UInt64] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count >= 2, parts[0].hasSuffix(":"), let value = UInt64(parts[1]) else {
        continue
      }
      fields[parts[0].dropLast()] = value
    }
    guard let total = fields["MemTotal"] else { return nil }
    let cached = fields["Cached"] ?? 0
    let buffers = fields["Buffers"] ?? 0
    let available = fields["MemAvailable"] ?? ((fields["MemFree"] ?? 0) + cached + buffers)
    self.init(total: total, available: available, cached: cached, buffers: buffers)
  }
}
