import Synchronization

/// A stand-in for the sign-up server: it answers after `latency` on `clock`, logs what it was
/// asked and what became of each request, and fails the requests it is told to, once each.
final class Service: Sendable {
  let clock: any Clock<Duration>
  let latency: Duration
  private let log = Log()
  private let failing = Mutex<Set<String>>([])

  init(
    clock: any Clock<Duration>, latency: Duration = .milliseconds(200)
  ) {
    self.clock = clock
    self.latency = latency
  }

  /// Makes the next `request` fail, as a dropped connection would.
  func failNext(_ request: String) {
    _ = failing.withLock { $0.insert(request) }
  }

  /// Whether `name` is free: every name but "ada" and "grace".
  func isAvailable(_ name: String) async throws -> Bool {
    try await request("check \(name)")
    return !["ada", "grace"].contains(name)
  }

  /// Signs `name` up: the welcome message.
  func signUp(_ name: String, password: String) async throws -> String {
    try await request("sign up \(name)")
    return "Welcome, \(name)!"
  }

  /// What the server was asked, in order.
  var requests: [String] { log.lines }

  private func request(_ line: String) async throws {
    log.append(line)
    do {
      try await clock.sleep(for: latency)
    } catch {
      log.append("cancelled: \(line)")
      throw error
    }
    if failing.withLock({ $0.remove(line) }) != nil {
      log.append("failed: \(line)")
      throw ServiceError.connectionLost
    }
  }
}

enum ServiceError: Error {
  case connectionLost
}
