/// A stand-in for the sign-up server: it answers after `latency` on `clock`, and logs what it
/// was asked and what became of each request.
final class Service: Sendable {
  let clock: any Clock<Duration>
  let latency: Duration
  private let log = Log()

  init(
    clock: any Clock<Duration>, latency: Duration = .milliseconds(200)
  ) {
    self.clock = clock
    self.latency = latency
  }

  /// Whether `name` is free: every name but "ada" and "grace".
  func isAvailable(_ name: String) async throws -> Bool {
    log.append("check \(name)")
    do {
      try await clock.sleep(for: latency)
    } catch {
      log.append("cancelled \(name)")
      throw error
    }
    return !["ada", "grace"].contains(name)
  }

  /// What the server was asked, in order.
  var requests: [String] { log.lines }
}
