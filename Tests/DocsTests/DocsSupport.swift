import Foundation
import Testing

/// The package's root directory, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs an executable built next to the test runner (a tutorial step, an article's example)
/// and returns what it printed.
func run(executable name: String) throws -> String {
  let runner = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
  let binaries = runner.resolvingSymlinksInPath().deletingLastPathComponent()
  let process = Process()
  process.executableURL = binaries.appendingPathComponent(name)
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  #expect(process.terminationStatus == 0, "\(name) exited with \(process.terminationStatus)")
  return String(decoding: data, as: UTF8.self)
}
