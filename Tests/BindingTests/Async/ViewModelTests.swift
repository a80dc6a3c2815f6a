import InvalidatingBinding
import InvalidatingCore
import InvalidatingTesting
import Testing

/// The ported RxExample view models, driven as a screen drives them, on a test clock: no
/// polling, no sleeping.
@Suite("View models that do async work")
struct ViewModelTests {
  @Test("Search as you type: one search per pause in typing, the latest wins")
  func searchAsYouType() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock, latency: .milliseconds(500))
    let model = SearchViewModel(api: api, clock: clock)
    await clock.settle()  // the empty query's (immediate) results
    let results = Recorder(model.results.map { $0.map(\.name) }, clock: clock)
    let searching = Recorder(model.isSearching, clock: clock)
    for text in ["s", "sw", "swi"] {
      model.query.accept(text)
      await clock.advance(by: .milliseconds(100))
    }
    await clock.advance(by: .milliseconds(200))  // 300 ms after "swi": its search starts
    model.query.accept("swift")  // typing again: that search is superseded
    await clock.advance(by: .seconds(1))
    #expect(api.log.sorted() == ["cancel swi", "end swift", "start swi", "start swift"])
    #expect(
      results.records == [
        Recorded(.zero, []), Recorded(.milliseconds(1300), ["swift-1", "swift-2", "swift-3"]),
      ])
    #expect(
      searching.records == [
        Recorded(.zero, false), Recorded(.milliseconds(500), true),
        Recorded(.milliseconds(1300), false),
      ])
  }

  @Test("Search retries a failed request, then shows nothing, and goes on with the next query")
  func searchRetriesThenRecovers() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    api.fail("swift", times: 3)
    let model = SearchViewModel(api: api, clock: clock)
    model.query.accept("swift")
    await clock.advance(by: .seconds(2))
    #expect(api.log.filter { $0.hasPrefix("fail") }.count == 3)
    #expect(model.results.value == [])
    model.query.accept("rx")
    await clock.advance(by: .seconds(1))
    #expect(model.results.value.map(\.name) == ["rx-1", "rx-2", "rx-3"])
  }

  @Test("Sign-up: the username is checked as it settles; the action is enabled when all is valid")
  func signUp() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    let model = SignUpViewModel(api: api, clock: clock)
    let enabled = Recorder(model.signUp.isEnabled, clock: clock)
    model.username.accept("octocat")
    model.password.accept("secret")
    model.repeatedPassword.accept("secret")
    await clock.advance(by: .milliseconds(300))
    #expect(model.usernameValidation.value == .validating)
    await clock.advance(by: .milliseconds(200))
    #expect(model.usernameValidation.value == .failed("Username already taken"))
    #expect(!model.signUp.isEnabled.value)
    model.username.accept("mona")
    await clock.advance(by: .milliseconds(500))
    #expect(model.usernameValidation.value == .ok)
    #expect(model.signUp.isEnabled.value)
    model.signUpTapped()
    #expect(model.signUp.isExecuting.value)
    model.signUpTapped()  // refused: executing
    await clock.advance(by: .milliseconds(200))
    #expect(model.signedIn.value)
    #expect(api.log.filter { $0.hasPrefix("start sign up") } == ["start sign up mona"])
    #expect(enabled.records.map(\.value) == [false, true, false, true])
    #expect(
      enabled.records.map(\.time) == [
        .zero, .milliseconds(1000), .milliseconds(1000),
        .milliseconds(1200),
      ])
  }

  @Test("Sign-up: a mismatched or short password keeps the action disabled")
  func signUpValidation() async {
    let clock = TestClock()
    let model = SignUpViewModel(api: FakeGitHub(clock: clock), clock: clock)
    model.password.accept("abc")
    model.repeatedPassword.accept("abd")
    #expect(model.passwordValidation.value == .failed("Too short"))
    #expect(model.repeatedPasswordValidation.value == .failed("Passwords differ"))
    model.username.accept("mona")
    await clock.advance(by: .seconds(1))
    #expect(!model.signUp.isEnabled.value)
    #expect(!model.signUp.apply(("mona", "abc")))
  }

  @Test("A paged list loads the first page, then each next page on demand, until the last")
  func pagedList() async {
    let clock = TestClock()
    let api = FakeGitHub(clock: clock)
    api.fail("page 2", times: 2)
    let model = RepositoryListViewModel(api: api)
    await clock.settle()  // the first page is on its way
    let loading = Recorder(model.isLoading, clock: clock)
    await clock.advance(by: .milliseconds(200))
    #expect(model.repositories.value.map(\.name) == ["repo-1", "repo-2"])
    model.loadNextPage.accept(())
    model.loadNextPage.accept(())  // dropped: page 2 is loading
    await clock.advance(by: .milliseconds(400))  // two tries, both failed
    #expect(model.errorMessage.value == "Retry")
    model.loadNextPage.accept(())
    await clock.advance(by: .milliseconds(200))
    #expect(model.repositories.value.map(\.name) == ["repo-1", "repo-2", "repo-3", "repo-4"])
    #expect(model.errorMessage.value == nil)
    model.loadNextPage.accept(())  // no page after the last: nothing is asked
    await clock.advance(by: .seconds(1))
    #expect(api.log.filter { $0.hasPrefix("start") }.count == 4)
    // Each try is tracked on its own: page 2's two failed tries, then its success.
    #expect(loading.records.map(\.value) == [true, false, true, false, true, false, true, false])
  }
}
