import Foundation
import Testing

@testable import InvalidatingCore

/// Random programs against the engine, checked step by step against the reference model.
///
/// Reproduce a failure with its seed: `RELIABILITY_SEED=<seed> RELIABILITY_PROGRAMS=1 swift
/// test --filter ReliabilityTests`. Run more programs with a larger `RELIABILITY_PROGRAMS`
/// (engine) or `RELIABILITY_PUBLIC_PROGRAMS` (relays, operators, bindings and views).
@Suite("Model-based random programs")
struct ModelBasedTests {
  /// The seeds to run: `RELIABILITY_PROGRAMS` (default 2500) consecutive seeds from
  /// `RELIABILITY_SEED` (default a fixed value, so CI runs the same programs every time).
  static let seeds: Range<UInt64> = {
    let environment = ProcessInfo.processInfo.environment
    let first = environment["RELIABILITY_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0000
    let count = environment["RELIABILITY_PROGRAMS"].flatMap { UInt64($0) } ?? 2500
    return first..<first + count
  }()

  @Test("Random programs on the engine agree with the reference model")
  func engineAgreesWithModel() {
    var coverage = Coverage()
    var failures = 0
    for seed in Self.seeds {
      var generator = ProgramGenerator(seed: seed)
      let program = generator.program()
      do {
        coverage.add(try ModelCheck.run(program, on: CoreSystem()))
      } catch {
        failures += 1
        Issue.record(Comment(rawValue: Self.report(seed: seed, program: program, error: error)))
        if failures == 3 { break }
      }
    }
    #expect(failures == 0)
    #expect(coverage.programs == Self.seeds.count - failures)
    print(
      """
      Model-based: \(coverage.programs) programs (seeds \(Self.seeds.lowerBound)..<\
      \(Self.seeds.upperBound)), \(coverage.steps) steps, \(coverage.events) events, \
      \(coverage.sinkCalls) sink calls, \(coverage.reentrantWrites) re-entrant writes, \
      \(coverage.cancelsFromSinks) cancels from sinks, \(coverage.batches) batches, \
      \(coverage.releases) releases, \(coverage.freedNodes) nodes checked freed
      """)
    // The generator reaches every kind of step, in quantity.
    if failures == 0 && Self.seeds.count >= 1000 {
      #expect(coverage.reentrantWrites > 1000)
      #expect(coverage.cancelsFromSinks > 100)
      #expect(coverage.batches > 1000)
      #expect(coverage.releases > 1000)
    }
  }

  /// The seeds for the public layers: `RELIABILITY_PUBLIC_PROGRAMS` (default 3000) from the
  /// same first seed.
  static let publicSeeds: Range<UInt64> = {
    let environment = ProcessInfo.processInfo.environment
    let count = environment["RELIABILITY_PUBLIC_PROGRAMS"].flatMap { UInt64($0) } ?? 3000
    return seeds.lowerBound..<seeds.lowerBound + count
  }()

  @Test("Random programs on relays, operators, bindings and views agree with the model")
  @MainActor
  func publicLayersAgreeWithModel() {
    var coverage = Coverage()
    var failures = 0
    for seed in Self.publicSeeds {
      var generator = ProgramGenerator(seed: seed, publicLayers: true)
      let program = generator.program()
      do {
        coverage.add(try ModelCheck.run(program, on: PublicSystem()))
      } catch {
        failures += 1
        let report = Self.report(seed: seed, program: program, error: error) { PublicSystem() }
        Issue.record(Comment(rawValue: report))
        if failures == 3 { break }
      }
    }
    #expect(failures == 0)
    print(
      """
      Model-based, public layers: \(coverage.programs) programs (seeds \
      \(Self.publicSeeds.lowerBound)..<\(Self.publicSeeds.upperBound)), \(coverage.steps) steps, \
      \(coverage.events) events, \(coverage.sinkCalls) sink calls, \(coverage.reentrantWrites) \
      re-entrant writes, \(coverage.cancelsFromSinks) cancels from sinks, \(coverage.batches) \
      batches, \(coverage.releases) releases, \(coverage.views) views, \(coverage.bindings) \
      bindings, \(coverage.invalidations) invalidations, \(coverage.freedNodes) nodes checked freed
      """)
    if failures == 0 && Self.publicSeeds.count >= 1000 {
      #expect(coverage.reentrantWrites > 1000)
      #expect(coverage.batches > 1000)
      #expect(coverage.views > 500)
      #expect(coverage.bindings > 500)
      #expect(coverage.invalidations > 1000)
    }
  }

  /// The seed, the shrunk program and what went wrong with it.
  static func report(
    seed: UInt64, program: [Step], error: any Error,
    system: () -> any SystemUnderTest = { CoreSystem() }
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
