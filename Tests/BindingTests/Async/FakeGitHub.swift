import InvalidatingTesting
import Synchronization

/// A repository, as the search and list screens show it.
struct Repository: Equatable, Sendable {
  let name: String
}

/// An error of the fake service.
struct ServiceError: Error, Equatable {
  let reason: String
}

/// A stand-in for GitHub's API that answers after `latency` on a test clock, and logs what it
/// was asked and what became of each request ("start swift", "end swift", "cancel swift").
final class FakeGitHub: Sendable {
  let clock: TestClock
  let latency: Duration
  private let state = Mutex(State())

  private struct State {
    var log: [String] = []
    var failuresLeft: [String: Int] = [:]
    var takenUsernames: Set<String> = ["octocat"]
  }

  init(clock: TestClock, latency: Duration = .milliseconds(200)) {
    self.clock = clock
    self.latency = latency
  }

  /// What the service was asked, in order.
  var log: [String] { state.withLock { $0.log } }

  /// Makes the next `count` requests about `query` fail.
  func fail(_ query: String, times count: Int) {
    state.withLock { $0.failuresLeft[query] = count }
  }

  /// Repositories whose name starts with `query`: three, for any non-empty query.
  func search(_ query: String) async throws -> [Repository] {
    try await answer(query) { (1...3).map { Repository(name: "\(query)-\($0)") } }
  }

  /// The same as `search(_:)`, but the request runs to its end even once cancelled: the
  /// result of a superseded request then comes late, for the latest-wins operator to drop.
  func searchIgnoringCancellation(_ query: String) async -> [Repository] {
    record("start \(query)")
    let clock = clock
    let latency = latency
    // An inner task that cancelling the caller does not reach.
    await Task { try? await clock.sleep(for: latency) }.value
    record(Task.isCancelled ? "late \(query)" : "end \(query)")
    return [Repository(name: query)]
  }

  /// Page `page` (from 1) of a listing of 2 pages of 2 repositories each; `nil` next after 2.
  func repositories(page: Int) async throws -> (items: [Repository], next: Int?) {
    try await answer("page \(page)") {
      ((page * 2 - 1)...(page * 2)).map { Repository(name: "repo-\($0)") }
    }
    .with(next: page < 2 ? page + 1 : nil)
  }

  /// Whether `username` is free.
  func isAvailable(_ username: String) async throws -> Bool {
    try await answer("available \(username)") {
      state.withLock { !$0.takenUsernames.contains(username) }
    }
  }

  /// Signs `username` up.
  func signUp(_ username: String, password: String) async throws -> Bool {
    try await answer("sign up \(username)") {
      state.withLock { $0.takenUsernames.insert(username).inserted }
    }
  }

  private func answer<Output>(_ request: String, _ output: () -> Output) async throws -> Output {
    record("start \(request)")
    do {
      try await clock.sleep(for: latency)
    } catch {
      record("cancel \(request)")
      throw error
    }
    let fails = state.withLock { state -> Bool in
      guard let left = state.failuresLeft[request], left > 0 else { return false }
      state.failuresLeft[request] = left - 1
      return true
    }
    record(fails ? "fail \(request)" : "end \(request)")
    if fails { throw ServiceError(reason: "\(request) failed") }
    return output()
  }

  private func record(_ line: String) {
    state.withLock { $0.log.append(line) }
  }
}

extension Array where Element == Repository {
  fileprivate func with(next: Int?) -> (items: [Repository], next: Int?) { (self, next) }
}
