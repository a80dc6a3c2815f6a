import Dispatch
import Invalidating
import InvalidatingTestSupport
import Testing

/// The configuration of a Linux service, shared by every worker thread: a `Sendable` class with
/// no `@unchecked` and no `nonisolated(unsafe)`. Callers read `Property`s; only the model
/// writes, through private relays; derived state is a `let` built in `init`.
final class ServiceConfig: Sendable {
  /// Seconds a request may take.
  let timeout: Property<Int>
  /// How many connections the service accepts at once.
  let connectionLimit: Property<Int>
  /// How many times the configuration was reloaded.
  let reloads: Property<Int>
  /// A line for the status page, derived from the rest.
  let summary: Property<String>

  private let timeoutRelay = BehaviorRelay(30)
  private let connectionLimitRelay = BehaviorRelay(100)
  private let reloadsRelay = BehaviorRelay(0)

  init() {
    timeout = timeoutRelay.asProperty()
    connectionLimit = connectionLimitRelay.asProperty()
    reloads = reloadsRelay.asProperty()
    summary = Property.combineLatest(timeoutRelay, connectionLimitRelay, reloadsRelay)
      .map { timeout, limit, reloads in
        "timeout \(timeout)s, \(limit) connections, \(reloads) reloads"
      }
  }

  /// Applies a reloaded configuration file: the timeout and the count of reloads change
  /// together.
  func reload(timeout: Int) {
    batch {
      timeoutRelay.accept(timeout)
      reloadsRelay.modify { $0 += 1 }
    }
  }

  /// Lets one more connection in (an administrator's command, from any thread).
  func admitOneMoreConnection() {
    connectionLimitRelay.modify { $0 += 1 }
  }
}

@Suite struct SendableServiceModelTests {
  @Test func workersOnSeveralThreadsWriteWithoutLosingAChange() {
    let config = ServiceConfig()
    let lastSummary = Recorder<String>()
    let token = config.summary.subscribe(lastSummary.sink)
    let threads = 4
    let commands = 5_000
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for index in 0..<commands {
        if index % 100 == 0 { config.reload(timeout: 30 + thread) }
        config.admitOneMoreConnection()
      }
    }
    // Every `modify` counts, whichever thread made it.
    #expect(config.connectionLimit.value == 100 + threads * commands)
    #expect(config.reloads.value == threads * commands / 100)
    #expect((30..<30 + threads).contains(config.timeout.value))
    // After the writers stop, the derived line and its subscriber have caught up (rule 5).
    let expected =
      "timeout \(config.timeout.value)s, \(100 + threads * commands) connections, "
      + "\(threads * commands / 100) reloads"
    #expect(config.summary.value == expected)
    #expect(lastSummary.last == expected)
    _ = token
  }

  @Test func callersGetPropertiesThatCannotBeCastBackToWriters() {
    let config = ServiceConfig()
    #expect(!(config.timeout is BehaviorRelay<Int>))
    #expect(!(config.connectionLimit is BehaviorRelay<Int>))
    #expect(config.summary.value == "timeout 30s, 100 connections, 0 reloads")
  }
}
