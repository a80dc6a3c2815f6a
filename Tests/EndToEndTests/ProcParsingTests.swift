import Foundation
import InvalidatingDashboard
import Testing

/// Parsing `/proc`: each file on its own, then whole recorded readings.
@Suite struct ProcParsingTests {
  @Test func cpuLinesSumTheirStatesAndSkipOtherLines() throws {
    let text: Substring = """
      cpu  31703 7 5932 254028 395 1 51 21 3 0
      cpu0 13736 0 2503 129773 51 0 5 6 0 0
      cpu1 17967 7 3428 124254 344 1 45 14 3 0
      intr 266974 0 0
      ctxt 386130
      """
    let stat = try #require(CPUStat(parsing: text))
    #expect(stat.all == CPUTimes(user: 31710, system: 5984, idle: 254423, steal: 21))
    #expect(stat.cores.count == 2)
    #expect(stat.cores[1] == CPUTimes(user: 17974, system: 3474, idle: 124598, steal: 14))
  }

  @Test func oldKernelsWithFewerCPUFieldsCountTheMissingOnesAsZero() throws {
    let stat = try #require(CPUStat(parsing: "cpu 10 0 5 85\n"))
    #expect(stat.all == CPUTimes(user: 10, system: 5, idle: 85))
    #expect(stat.cores.isEmpty)
  }

  @Test func textWithoutACPULineIsRejected() {
    #expect(CPUStat(parsing: "intr 1 2 3\n") == nil)
  }

  @Test func usageIsTheBusyShareOfTheTicksBetweenTwoReadings() {
    let before = CPUTimes(user: 100, system: 50, idle: 850)
    let after = CPUTimes(user: 160, system: 65, idle: 875)
    #expect(after.usage(since: before) == 0.75)
    #expect(before.usage(since: before) == 0)
    #expect(before.usage(since: after) == 0)
  }

  @Test func memoryUsesMemAvailableOrEstimatesItOnOldKernels() throws {
    let modern = try #require(
      MemoryInfo(
        parsing: """
          MemTotal:       24684092 kB
          MemFree:        23085220 kB
          MemAvailable:   24098508 kB
          Buffers:           14724 kB
          Cached:          1191628 kB
          """))
    #expect(
      modern
        == MemoryInfo(total: 24_684_092, available: 24_098_508, cached: 1_191_628, buffers: 14_724))
    #expect(modern.used == 585_584)
    let old = try #require(
      MemoryInfo(parsing: "MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 20 kB\nCached: 300 kB\n"))
    #expect(old.available == 420)
    #expect(MemoryInfo(parsing: "MemFree: 100 kB\n") == nil)
  }

  @Test func loadAverageHasThreeAveragesAndTheTaskCounts() throws {
    let load = try #require(LoadAverage(parsing: "1.88 0.91 0.42 10/177 21455\n"))
    #expect(
      load
        == LoadAverage(
          oneMinute: 1.88, fiveMinutes: 0.91, fifteenMinutes: 0.42, runnableTasks: 10,
          totalTasks: 177))
    #expect(LoadAverage(parsing: "1.0 x\n") == nil)
  }

  @Test func processFieldsAreCountedFromTheLastParenthesis() throws {
    let line: Substring =
      "4242 (tricky) (name) R 1 4242 4242 0 -1 4194304 97 0 0 0 120 30 0 0 20 0 1 0 "
      + "145944 3133440 362 18446744073709551615 0 0"
    let process = try #require(ProcessStat(parsing: line))
    #expect(
      process
        == ProcessStat(
          id: 4242, name: "tricky) (name", state: "R", cpuTicks: 150, residentPages: 362))
    let named = try #require(ProcessStat(parsing: line, comm: "tricky) (name\n"))
    #expect(named.name == "tricky) (name")
    #expect(ProcessStat(parsing: "4242 (cut short) R 1 2 3") == nil)
  }

  @Test func aRecordedReadingHasEverythingTheDashboardShows() throws {
    let snapshot = try Samples.snapshot(4)
    #expect(snapshot.hostname == "vm")
    #expect(snapshot.cpu.cores.count == 2)
    #expect(snapshot.cpu.all == CPUTimes(user: 32696, system: 6207, idle: 254423, steal: 21))
    #expect(snapshot.memory.available == 24_089_852)
    #expect(snapshot.load.oneMinute == 1.88)
    #expect(snapshot.processes.count == 12)
    let runner = try #require(snapshot.processes.first { $0.id == 21027 })
    #expect(runner.name == "InvalidatingPac")
    #expect(runner.state == "S")
  }

  @Test func aMissingDirectoryNamesTheFileItCouldNotRead() {
    let directory = ProcDirectory(path: "/nonexistent/proc")
    #expect(throws: ProcDirectory.ReadError(path: "/nonexistent/proc/stat")) {
      try directory.snapshot()
    }
    #expect(directory.processIDs().isEmpty)
  }

  @Test func theBusiestProcessesAreMeasuredInTicksBetweenReadings() throws {
    let top = ProcessUsage.top(
      of: try Samples.snapshot(4), since: try Samples.snapshot(3), limit: 3)
    #expect(top.map(\.id) == [21027, 21020, 20994])
    #expect(top.map { TextLayout.fixed($0.cpuPercent, digits: 1) } == ["60.0", "14.2", "12.9"])
    #expect(top[0].residentKiB == 25_596)
  }

  @Test func aRecordingWithoutAPageSizeCountsFourKiBPages() throws {
    #expect(try Samples.snapshot(4).pageKiB == 4)
  }

  @Test func aRecordingsPagesizeFileSetsThePageSizeResidentMemoryIsCountedIn() throws {
    // Reading 4 again, as recorded on a machine with 16 KiB pages.
    let copy = FileManager.default.temporaryDirectory
      .appendingPathComponent("invalidating-pagesize-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.copyItem(
      at: URL(fileURLWithPath: Samples.directory(4).path), to: copy)
    defer { try? FileManager.default.removeItem(at: copy) }
    try "16384\n".write(
      to: copy.appendingPathComponent("pagesize"), atomically: true, encoding: .utf8)
    let snapshot = try ProcDirectory(path: copy.path).snapshot()
    #expect(snapshot.pageKiB == 16)
    let top = ProcessUsage.top(of: snapshot, since: try Samples.snapshot(3), limit: 1)
    // The busiest process has 6,399 resident pages (25,596 KiB in 4 KiB pages).
    #expect(top[0].residentKiB == 6_399 * 16)
  }

  #if os(Linux)
    @Test func theLiveProcReportsThisMachinesPageSize() throws {
      let snapshot = try ProcDirectory().snapshot()
      #expect(snapshot.pageKiB == UInt64(getpagesize()) / 1024)
    }
  #endif
}
