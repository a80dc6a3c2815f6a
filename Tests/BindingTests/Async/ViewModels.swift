import InvalidatingBinding
import InvalidatingCore

// The view models of RxExample's GitHub search, sign-up and paged list screens, ported: what a
// migrating team writes, with public API only. Their line counts (from `final class` to the
// closing brace) are compared with the originals in the report and the article.

// MARK: Search as you type: debounce, latest wins, retry, errors as values

final class SearchViewModel: Sendable {
  let query = BehaviorRelay("")
  let results: Property<[Repository]>
  let isSearching: Property<Bool>

  init(api: FakeGitHub, clock: some Clock<Duration> & Sendable) {
    let search = query.debounce(for: .milliseconds(300), clock: clock)
      .flatMapLatest(attempts: 3) { text in text.isEmpty ? [] : try await api.search(text) }
    results = search.map { $0.value ?? [] }.removeDuplicates()
    isSearching = search.map(\.isRunning).removeDuplicates()
  }
}

// MARK: Sign-up: an availability check, an Action, activity

enum Validation: Equatable, Sendable {
  case empty, validating, ok
  case failed(String)

  var isValid: Bool { self == .ok }
}

final class SignUpViewModel: Sendable {
  let username = BehaviorRelay("")
  let password = BehaviorRelay("")
  let repeatedPassword = BehaviorRelay("")
  let usernameValidation: Property<Validation>
  let passwordValidation: Property<Validation>
  let repeatedPasswordValidation: Property<Validation>
  let signUp: Action<(String, String), Bool>
  let signedIn: Property<Bool>

  init(api: FakeGitHub, clock: some Clock<Duration> & Sendable) {
    usernameValidation = username.debounce(for: .milliseconds(300), clock: clock)
      .flatMapLatest { name in name.isEmpty ? nil : try await api.isAvailable(name) }
      .map { phase in
        switch phase {
        case .running: .validating
        case .success(nil): .empty
        case .success(true?): .ok
        case .success(false?): .failed("Username already taken")
        case .failure: .failed("Error contacting server")
        }
      }
    passwordValidation = password.map {
      $0.isEmpty ? .empty : $0.count < 5 ? .failed("Too short") : .ok
    }
    repeatedPasswordValidation = Property.combineLatest(password, repeatedPassword) {
      $1.isEmpty ? .empty : $0 == $1 ? .ok : .failed("Passwords differ")
    }
    let formIsValid = Property.combineLatest(
      usernameValidation, passwordValidation, repeatedPasswordValidation
    ) { $0.isValid && $1.isValid && $2.isValid }
    signUp = Action(enabledIf: formIsValid) { name, password in
      try await api.signUp(name, password: password)
    }
    signedIn = Property(initial: false, then: signUp.values)
  }

  func signUpTapped() { signUp.apply((username.value, password.value)) }
}

// MARK: A paged list: load the next page on demand, first strategy, activity, errors shown

final class RepositoryListViewModel: Sendable {
  let loadNextPage = PublishRelay<Void>()
  let repositories: Property<[Repository]>
  let isLoading: Property<Bool>
  let errorMessage: Property<String?>
  private let nextPage = BehaviorRelay<Int?>(1)
  private let activity = ActivityTracker()
  private let nextPageBinding: SubscriptionToken

  init(api: FakeGitHub) {
    let pages = loadNextPage.startWith(()).withLatestFrom(nextPage).compactMap { $0 }
      .flatMapFirst(attempts: 2) { [activity] page in
        try await activity.track { try await api.repositories(page: page) }
      }
    nextPageBinding = pages.successes().map(\.next).bind(to: nextPage)
    repositories = pages.successes().scan(into: []) { $0 += $1.items }
    isLoading = activity.isActive
    errorMessage = Property(
      initial: nil, then: pages.map { (try? $0.get()) == nil ? "Retry" : nil })
  }
}
