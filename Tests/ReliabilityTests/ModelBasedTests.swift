import Foundation
import Testing

@testable import InvalidatingCore

/// Random programs against the engine, checked step by step against the reference model.
///
/// Reproduce a failure with its seed: `RELIABILITY_SEED=<seed> RELIABILITY_PROGRAMS=1 swift
/// test --filter ReliabilityTests`. Run more programs with a larger `RELIABILITY_PROGRAMS`
/// (engine) or `RELIABILITY_PUBLIC_PROGRAMS` (relays, operators, bindings and views).
///
/// The programs run in child processes (`ContainedRun`): one that stops the engine (issue 26's
/// "depends on itself" on a valid program) is recorded with its seed, and the run goes on
/// from the next seed; a stop listed in `KnownStops` is a known issue.
@Suite("Model-based random programs")
struct ModelBasedTests {
  /// The seeds to run: `RELIABILITY_PROGRAMS` (default 2500, 800 under ThreadSanitizer, which
  /// runs these single-threaded programs ten times slower and finds nothing more in them)
  /// consecutive seeds from `RELIABILITY_SEED` (default a fixed value, so CI runs the same
  /// programs every time).
  static let seeds: Range<UInt64> = {
    let environment = ProcessInfo.processInfo.environment
    let first = environment["RELIABILITY_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0000
    let count =
      environment["RELIABILITY_PROGRAMS"].flatMap { UInt64($0) }
      ?? (Sustained.isUnderThreadSanitizer ? 800 : 2500)
    return first..<first + count
  }()

  @Test("Random programs on the engine agree with the reference model")
  func engineAgreesWithModel() async {
    // In child processes: a program that stops the engine ends only its child (see
    // `ContainedRun`).
    await ContainedRun.run(Self.seeds, what: "Engine programs") { seeds in
      await #expect(
        processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
      ) { [first = seeds.lowerBound as UInt64, end = seeds.upperBound as UInt64] in
        await MainActor.run { Self.checkEnginePrograms(first..<end) }
        ContainedRun.finish()
      }
    }
  }

  /// Runs the engine programs of `seeds` against the model.
  @MainActor
  static func checkEnginePrograms(_ seeds: Range<UInt64>) {
    let coverage = checkPrograms(
      seeds, known: KnownFailures.engine, what: "Model-based", system: { CoreSystem() },
      generate: { seed in
        var generator = ProgramGenerator(seed: seed)
        return generator.program()
      })
    // The generator reaches every kind of step, in quantity.
    if let coverage, seeds.count >= 1000 {
      #expect(coverage.reentrantWrites > 1000)
      #expect(coverage.cancelsFromSinks > 100)
      #expect(coverage.batches > 1000)
      #expect(coverage.releases > 1000)
      #expect(coverage.computed > 1000)
      #expect(coverage.suspendedReads > 1000)
      #expect(coverage.suspensions > 100)
      #expect(coverage.dependencySwitches > 1000)
      #expect(coverage.checkedSinkReads > 1000)
    }
  }

  /// Runs the programs `generate` makes from `seeds` on `system()` against the model,
  /// recording every mismatch, shrunk (at most `RELIABILITY_MAX_FAILURES`, default 3, of
  /// them); a seed listed in `known` fails as a known issue, and passing is then a failure (the
  /// defect was fixed: delete the entry).
  ///
  /// - Returns: The coverage, if no program failed other than as known.
  @MainActor
  static func checkPrograms(
    _ seeds: Range<UInt64>, known: [UInt64: String], what: String,
    system: () -> any SystemUnderTest, generate: (UInt64) -> [Step]
  ) -> Coverage? {
    let maxFailures =
      ProcessInfo.processInfo.environment["RELIABILITY_MAX_FAILURES"].flatMap { Int($0) } ?? 3
    var coverage = Coverage()
    var failures = 0
    var knownFailures = 0
    for seed in seeds {
      ContainedRun.starting(seed)
      let program = generate(seed)
      do {
        coverage.add(try ModelCheck.run(program, on: system()))
        if let defect = known[seed] {
          Issue.record("Seed \(seed), listed as failing with \(defect), passes: delete its entry")
        }
      } catch {
        if let defect = known[seed] {
          knownFailures += 1
          withKnownIssue(Comment(rawValue: defect)) {
            Issue.record("Seed \(seed) failed: \(error)")
          }
          continue
        }
        failures += 1
        Issue.record(
          Comment(rawValue: Self.report(seed: seed, program: program, error: error, system: system))
        )
        if failures == maxFailures { break }
      }
    }
    #expect(failures == 0)
    print(
      "\(what) (seeds \(seeds.lowerBound)..<\(seeds.upperBound), \(knownFailures) failing as "
        + "known): \(coverage.summary)")
    return failures == 0 ? coverage : nil
  }

  /// The seeds for the public layers: `RELIABILITY_PUBLIC_PROGRAMS` (default 3000, 1000 under
  /// ThreadSanitizer) from the same first seed.
  static let publicSeeds: Range<UInt64> = {
    let environment = ProcessInfo.processInfo.environment
    let count =
      environment["RELIABILITY_PUBLIC_PROGRAMS"].flatMap { UInt64($0) }
      ?? (Sustained.isUnderThreadSanitizer ? 1000 : 3000)
    return seeds.lowerBound..<seeds.lowerBound + count
  }()

  @Test("Random programs on relays, operators, bindings and views agree with the model")
  func publicLayersAgreeWithModel() async {
    await ContainedRun.run(Self.publicSeeds, what: "Public-layer programs") { seeds in
      await #expect(
        processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
      ) { [first = seeds.lowerBound as UInt64, end = seeds.upperBound as UInt64] in
        await MainActor.run { Self.checkPublicPrograms(first..<end) }
        ContainedRun.finish()
      }
    }
  }

  /// Runs the public-layer programs of `seeds` against the model.
  @MainActor
  static func checkPublicPrograms(_ seeds: Range<UInt64>) {
    let coverage = checkPrograms(
      seeds, known: KnownFailures.publicLayers, what: "Model-based, public layers",
      system: { PublicSystem() },
      generate: { seed in
        var generator = ProgramGenerator(seed: seed, publicLayers: true)
        return generator.program()
      })
    if let coverage, seeds.count >= 1000 {
      #expect(coverage.reentrantWrites > 1000)
      #expect(coverage.batches > 1000)
      #expect(coverage.views > 500)
      #expect(coverage.bindings > 500)
      #expect(coverage.invalidations > 1000)
      #expect(coverage.computed > 1000)
      #expect(coverage.suspendedReads > 1000)
    }
  }

  /// Issue 26's program that stops with "depends on itself", as a model program.
  static let dependsOnItself: [Step] = [
    .source(0, initial: 0),  // s (even: false)
    .source(1, initial: 0),  // x
    .source(2, initial: 10),  // y
    .source(3, initial: 20),  // z
    // m, never observed: suspended.
    .derive(4, .computed(.branch(.read(1), even: .read(2), odd: .read(3))), inputs: [1, 2, 3]),
    .derive(5, .computed(.branch(.read(0), even: .constant(-1), odd: .read(4))), inputs: [0, 4]),
    .subscribe(0, to: 5, emitsCurrentValue: true, .record),
    .write(1, 1),  // m's branch flips while suspended
    .write(0, 1),  // n switches to m
  ]

  @Test("Issue 26's valid program that stopped with \"depends on itself\" agrees with the model")
  func dependsOnItselfProgram() async {
    await #expect(processExitsWith: .success) {
      _ = try ModelCheck.run(Self.dependsOnItself, on: CoreSystem())
    }
  }

  @Test("The generator reaches issue 26's \"depends on itself\" stop (seed 1592598014)")
  func generatorReachesDependsOnItself() async {
    // One of the seeds (outside the default range) whose program stopped with it: 4 of 20,000
    // engine programs and 2 of 8,000 public-layer ones did before the fix.
    await #expect(processExitsWith: .success) {
      var generator = ProgramGenerator(seed: 1_592_598_014)
      _ = try ModelCheck.run(generator.program(), on: CoreSystem())
    }
  }

  /// The seed, the shrunk program and what went wrong with it.
  static func report(
    seed: UInt64, program: [Step], error: any Error, system: () -> any SystemUnderTest
  ) -> String {
    let shrunk = Shrinker.shrink(program) { candidate in
      (try? ModelCheck.run(candidate, on: system())) == nil
    }
    var shrunkError = "\(error)"
    do {
      _ = try ModelCheck.run(shrunk, on: system())
    } catch {
      shrunkError = "\(error)"
    }
    return """
      Seed \(seed) failed: \(error)
      Shrunk program (\(shrunk.count) of \(program.count) steps), which fails with: \(shrunkError)
      \(describe(shrunk))
      """
  }
}
