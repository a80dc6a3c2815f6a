import Invalidating
import InvalidatingTestSupport
import Testing

// The login form of the migration article ("Migrating from RxRelay and RxCocoa"), as a view
// model is written with this library in Swift 6: a `Sendable` class, no `@unchecked`, no
// `nonisolated(unsafe)`, no `.asProperty()`. The article shows this code; this file compiles
// and runs it.

/// What the form sends.
struct Credentials: Equatable, Sendable {
  var email: String
  var password: String

  var isValid: Bool { email.contains("@") && password.count >= 8 }
}

/// The service the view model calls: it answers later, on any thread.
protocol LoginService: Sendable {
  func logIn(
    _ credentials: Credentials, completion: @escaping @Sendable (Result<String, LoginError>) -> Void
  )
}

/// Why a login failed.
enum LoginError: Error, Equatable, Sendable {
  case wrongPassword
}

final class LoginViewModel: Sendable {
  // Inputs: what the screen writes.
  let email = BehaviorRelay("")
  let password = BehaviorRelay("")
  let submit = PublishRelay<Void>()

  // Outputs: what the screen reads. Only this model writes them.
  let isSubmitEnabled: Property<Bool>
  let isLoading: Property<Bool>
  let errorMessage: Property<String?>
  let loggedIn: Signal<String>

  private let loading = BehaviorRelay(false)
  private let error = BehaviorRelay<String?>(nil)
  private let welcome = PublishRelay<String>()
  private let token: SubscriptionToken

  init(service: some LoginService) {
    let form = Property.combineLatest(email, password).map(Credentials.init)
    isSubmitEnabled = Property.combineLatest(form, loading).map { form, loading in
      form.isValid && !loading
    }
    isLoading = loading.asProperty()
    errorMessage = error.asProperty()
    loggedIn = welcome.asSignal()
    let attempts = submit.withLatestFrom(Property.combineLatest(form, loading))
      .filter { form, loading in form.isValid && !loading }
      .map { form, _ in form }
    token = attempts.subscribe { [loading, error, welcome] credentials in
      batch {
        loading.accept(true)
        error.accept(nil)
      }
      service.logIn(credentials) { result in
        batch {
          loading.accept(false)
          switch result {
          case .success(let name): welcome.accept(name)
          case .failure: error.accept("Wrong email or password.")
          }
        }
      }
    }
  }
}

/// A service that answers when the test says so.
final class ScriptedLoginService: LoginService, @unchecked Sendable {
  // Safe: `calls` is only touched while `lock` is held. (A test double; the view model above
  // needs no such escape.)
  private let lock = Lock()
  private var calls: [(Credentials, @Sendable (Result<String, LoginError>) -> Void)] = []

  func logIn(
    _ credentials: Credentials,
    completion: @escaping @Sendable (Result<String, LoginError>) -> Void
  ) {
    lock.lock()
    calls.append((credentials, completion))
    lock.unlock()
  }

  var requests: [Credentials] {
    lock.lock()
    defer { lock.unlock() }
    return calls.map(\.0)
  }

  /// Answers the oldest call not answered yet.
  func answer(_ result: Result<String, LoginError>) {
    lock.lock()
    let (_, completion) = calls.removeFirst()
    lock.unlock()
    completion(result)
  }
}

/// The screen: main-actor state assigned from the model, as a view controller would.
@MainActor
final class LoginController {
  private(set) var isButtonEnabled = false
  private(set) var isSpinning = false
  private(set) var errorText: String?
  private(set) var welcomes: [String] = []
  private var tokens: [SubscriptionToken] = []

  init(model: LoginViewModel) {
    model.isSubmitEnabled.drive { [weak self] in self?.isButtonEnabled = $0 }.store(in: &tokens)
    model.isLoading.drive { [weak self] in self?.isSpinning = $0 }.store(in: &tokens)
    model.errorMessage.drive { [weak self] in self?.errorText = $0 }.store(in: &tokens)
    model.loggedIn.emit { [weak self] in self?.welcomes.append($0) }.store(in: &tokens)
  }
}

@MainActor
@Suite("A login form view model: state, events, validation, loading, errors")
struct LoginFormViewModelTests {
  @Test("The button follows validation and loading; a tap sends the form once")
  func submitSendsTheFormOnce() {
    let service = ScriptedLoginService()
    let model = LoginViewModel(service: service)
    let screen = LoginController(model: model)
    #expect(screen.isButtonEnabled == false)
    model.email.accept("ann@example.com")
    model.password.accept("correct horse")
    #expect(screen.isButtonEnabled == true)
    model.submit.accept(())
    #expect(service.requests == [Credentials(email: "ann@example.com", password: "correct horse")])
    #expect(screen.isSpinning == true)
    #expect(screen.isButtonEnabled == false)
    model.submit.accept(())  // ignored while loading
    #expect(service.requests.count == 1)
    service.answer(.success("Ann"))
    #expect(screen.isSpinning == false)
    #expect(screen.welcomes == ["Ann"])
    #expect(screen.errorText == nil)
  }

  @Test("A failure shows an error, which the next attempt clears")
  func failureShowsAnErrorUntilTheNextAttempt() {
    let service = ScriptedLoginService()
    let model = LoginViewModel(service: service)
    let screen = LoginController(model: model)
    model.email.accept("ann@example.com")
    model.password.accept("wrong password")
    model.submit.accept(())
    service.answer(.failure(.wrongPassword))
    #expect(screen.errorText == "Wrong email or password.")
    #expect(screen.isButtonEnabled == true)
    model.submit.accept(())
    #expect(screen.errorText == nil)
    #expect(screen.isSpinning == true)
    service.answer(.success("Ann"))
    #expect(screen.welcomes == ["Ann"])
  }

  @Test("An invalid form sends nothing; two taps in one batch are two events")
  func invalidFormsAndBatchedTaps() {
    let service = ScriptedLoginService()
    let model = LoginViewModel(service: service)
    model.email.accept("not an email")
    model.password.accept("correct horse")
    model.submit.accept(())
    #expect(service.requests.isEmpty)
    let taps = model.submit.scan(into: 0) { count, _ in count += 1 }
    batch {
      model.submit.accept(())
      model.submit.accept(())
    }
    #expect(taps.value == 2)
  }
}
