import Invalidating
import InvalidatingDashboard
import InvalidatingTestSupport
import Testing

/// The dashboard's view model on recorded readings: the raw state it writes and the display
/// values derived from it.
@Suite struct SystemViewModelTests {
  @Test func theFirstReadingShowsNoUsageYet() throws {
    let model = SystemViewModel()
    model.apply(try Samples.snapshot(1))
    #expect(model.cpuSummary.value == CPUSummary(corePercents: [0, 0], totalPercent: 0))
    #expect(model.headline.value == "vm · 2 cores · load 1.34 0.79 0.38")
    #expect(model.processRows.value.allSatisfy { $0.cpu == "0.0" })
  }

  @Test func usageIsMeasuredBetweenConsecutiveReadings() throws {
    let model = SystemViewModel(processLimit: 2)
    model.apply(try Samples.snapshot(1))
    model.apply(try Samples.snapshot(2))
    #expect(model.cpuSummary.value == CPUSummary(corePercents: [100, 99], totalPercent: 100))
    #expect(
      model.memorySummary.value
        == MemorySummary(
          MemoryInfo(total: 24_684_092, available: 24_125_684, cached: 1_195_736, buffers: 15_360)))
    #expect(model.memorySummary.value.used == "0.5 GiB")
    #expect(model.memorySummary.value.total == "23.5 GiB")
    #expect(model.memorySummary.value.usedPercent == 2)
    #expect(
      model.processRows.value.map { "\($0.id) \($0.name) \($0.state) \($0.cpu) \($0.memory)" }
        == ["20461 swift-frontend R 14.3 120 MiB", "20464 swift-frontend R 12.2 130 MiB"])
  }

  @Test func eachReadingIsOneWriteOfEachStateAndANotificationOnlyWhenWhatIsShownChanged() throws {
    let model = SystemViewModel()
    let headlines = Recorder<String>()
    let percents = Recorder<[Int]>()
    let tokens = [
      model.headline.subscribe(headlines.sink),
      model.cpuSummary.subscribe { percents.record($0.corePercents) },
    ]
    for number in 1...Samples.count { model.apply(try Samples.snapshot(number)) }
    #expect(model.writeCount == 6 * Samples.count)
    #expect(
      headlines.values == [
        " · 0 cores · load 0.00 0.00 0.00", "vm · 2 cores · load 1.34 0.79 0.38",
        "vm · 2 cores · load 1.88 0.91 0.42",
      ])
    // Readings 3 and 4 both show [100, 100]: the computed property cuts the second off.
    #expect(percents.values == [[], [0, 0], [100, 99], [100, 100]])
    _ = tokens
  }
}
