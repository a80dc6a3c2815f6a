import Invalidating
import InvalidatingTesting
import Synchronization
import Testing

// The async lines of ../shared/design/API.md's "Next" listing, in the spellings chosen (the
// listing's `.retry(3)` is `attempts: 3` on the operator), each comment's promise an
// expectation.

private struct Repo: Equatable, Sendable {
  let name: String
}

private struct SignUpForm: Sendable {
  let name: String
}

/// A stand-in for a server, answering on the test clock.
private struct API: Sendable {
  let clock: TestClock
  func search(_ text: String) async throws -> [Repo] {
    try await clock.sleep(for: .milliseconds(500))
    return text == "swift" ? [Repo(name: "swift-log")] : []
  }
  func signUp(_ form: SignUpForm) async throws -> String {
    try await clock.sleep(for: .milliseconds(100))
    return form.name
  }
  func user(_ id: Int) async throws -> String { "user \(id)" }
}

@Suite("The async lines of the API listing compile and do what their comments say")
struct AsyncListingTests {
  @Test func asyncWorkActionsActivityAndTheTestClock() async throws {
    let clock = TestClock()
    let api = API(clock: clock)
    let query = BehaviorRelay("")

    // Async work per element, latest wins: the previous task is cancelled, a late result
    // dropped.
    let results: Signal<[Repo]> = query.changes
      .debounce(for: .milliseconds(300), clock: clock)
      .flatMapLatest(attempts: 3) { text in try await api.search(text) }
      .replaceError(with: [])
    let recorded = Recorder(results, clock: clock)
    query.accept("swi")
    await clock.advance(by: .milliseconds(350))  // "swi" is searched from 300 ms
    query.accept("swift")  // searched from 650 ms: the search of "swi" is cancelled then
    await clock.advance(by: .seconds(1))  // returns after every due timer and delivery
    #expect(recorded.records == [Recorded(.milliseconds(1150), [Repo(name: "swift-log")])])

    // An Action: enabled state, executing state, values and errors.
    let formIsValid = BehaviorRelay(true)
    let signUp = Action(enabledIf: formIsValid) { (form: SignUpForm) in try await api.signUp(form) }
    let values = Recorder(signUp.values)
    #expect(signUp.apply(SignUpForm(name: "mona")))
    #expect(signUp.isExecuting.value)  // Property<Bool>
    #expect(!signUp.isEnabled.value)  // enabledIf && !isExecuting
    #expect(!signUp.apply(SignUpForm(name: "again")))  // refused atomically when disabled
    await clock.advance(by: .milliseconds(100))
    #expect(values.values == ["mona"])
    _ = signUp.errors  // Signal<any Error>

    // Activity across several calls.
    let activity = ActivityTracker()
    let user = try await activity.track {
      #expect(activity.isActive.value)  // Property<Bool>
      return try await api.user(7)
    }
    #expect(user == "user 7")
    #expect(!activity.isActive.value)
  }
}
