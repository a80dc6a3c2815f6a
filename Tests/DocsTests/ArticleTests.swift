import Foundation
import Testing

/// Runs the examples the articles quote, and checks that they print what the articles say.
@Suite struct ArticleTests {
  /// "Debugging invalidations" quotes the README's example, traced, in its first `text` block.
  @Test func debuggingInvalidationsQuotesTheExamplesOutput() throws {
    let printed = try run(executable: "DebuggingExample")
    let quoted = try firstTextBlock(ofArticle: "DebuggingInvalidations.md")
    #expect(printed == quoted)
  }

  /// The README quotes a line that `swift run DebuggingExample` prints: its example, traced.
  @Test func readmeQuotesALineTheTracedExamplePrints() throws {
    let printed = try run(executable: "DebuggingExample").split(separator: "\n")
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let quoted = readme.split(separator: "\n").filter { $0.contains(" ← ") }
    #expect(quoted.count == 1)
    for line in quoted { #expect(printed.contains(line)) }
  }
}

/// The text of the first ```text block of an article in the DocC catalog.
private func firstTextBlock(ofArticle file: String) throws -> String {
  let url = packageRoot.appendingPathComponent("Docs/Invalidating.docc/Articles/\(file)")
  let lines = try String(contentsOf: url, encoding: .utf8).split(
    separator: "\n", omittingEmptySubsequences: false)
  guard let opening = lines.firstIndex(of: "```text"),
    let closing = lines[(opening + 1)...].firstIndex(of: "```")
  else { return "" }
  return lines[(opening + 1)..<closing].map { $0 + "\n" }.joined()
}
