import Foundation
import Testing

/// Runs the last step of each DocC tutorial, as a learner does with `swift run`, and checks that
/// it prints what the tutorial says it prints: the last fenced code block of the tutorial file.
@Suite struct TutorialTests {
  @Test func aViewModelThatOthersOnlyRead() throws {
    let printed = try run(executable: "ViewModelTutorialStep4")
    let promised = try lastCodeBlock(ofTutorial: "ViewModel.tutorial")
    #expect(printed == promised)
  }

  @Test func viewsThatInvalidateThemselves() throws {
    let printed = try run(executable: "ViewsTutorialStep3")
    let promised = try lastCodeBlock(ofTutorial: "Views.tutorial")
    #expect(printed == promised)
  }

  @Test func viewsThatFollowTheirModel() throws {
    let printed = try run(executable: "AutomaticTutorialStep3")
    let promised = try lastCodeBlock(ofTutorial: "Automatic.tutorial")
    #expect(printed == promised)
  }

  @Test func asyncWorkInAViewModel() throws {
    let printed = try run(executable: "AsyncTutorialStep3")
    let promised = try lastCodeBlock(ofTutorial: "Async.tutorial")
    #expect(printed == promised)
  }
}

/// The text of the last fenced code block of a tutorial in the DocC catalog, without the
/// indentation it has inside its directive.
private func lastCodeBlock(ofTutorial file: String) throws -> String {
  let url = packageRoot.appendingPathComponent("Docs/Invalidating.docc/Tutorials/\(file)")
  let lines = try String(contentsOf: url, encoding: .utf8).split(
    separator: "\n", omittingEmptySubsequences: false)
  let fences = lines.indices.filter {
    lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("```")
  }
  guard fences.count >= 2 else { return "" }
  let opening = fences[fences.count - 2]
  let closing = fences[fences.count - 1]
  let indentation = lines[opening].prefix { $0 == " " }.count
  return lines[(opening + 1)..<closing]
    .map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) + "\n" }
    .joined()
}
