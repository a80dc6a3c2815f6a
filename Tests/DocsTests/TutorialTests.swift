import Foundation
import Testing

/// Runs every step of the DocC tutorials whose output a tutorial shows, as a learner does with
/// `swift run`, and checks that it prints that output: `Docs/Examples/<Tutorial>/Step<N>.output.txt`,
/// the listing the tutorial's "Run it" step shows in the code panel.
@Suite struct TutorialTests {
  /// Each tutorial step that shows its output: the tutorial's folder and the step's number.
  static let stepsWithOutput: [String] = {
    let examples = packageRoot.appendingPathComponent("Docs/Examples")
    let files = FileManager.default.enumerator(atPath: examples.path)?
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".output.txt") }
    return (files ?? []).map { String($0.dropLast(".output.txt".count)) }.sorted()
  }()

  @Test func everyTutorialShowsTheOutputOfItsLastStep() {
    #expect(Self.stepsWithOutput.contains("ViewModel/Step4"))
    #expect(Self.stepsWithOutput.contains("Views/Step3"))
    #expect(Self.stepsWithOutput.contains("Automatic/Step4"))
    #expect(Self.stepsWithOutput.contains("Async/Step3"))
  }

  @Test(arguments: stepsWithOutput)
  func aStepPrintsTheOutputItsTutorialShows(step: String) throws {
    let parts = step.split(separator: "/")
    let printed = try run(executable: "\(parts[0])Tutorial\(parts[1])")
    let shown = try String(
      contentsOf: packageRoot.appendingPathComponent("Docs/Examples/\(step).output.txt"),
      encoding: .utf8)
    #expect(printed == shown)
  }
}
