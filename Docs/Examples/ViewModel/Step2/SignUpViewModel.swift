import Invalidating

/// The state of a sign-up form: what the screen shows, and the only
/// ways to change it.
final class SignUpViewModel: Sendable {
  /// What the screen reads: properties, which have no `accept`.
  let username: Property<String>
  let password: Property<String>

  /// What only the view model writes: relays nobody else can reach.
  private let usernameRelay = BehaviorRelay("")
  private let passwordRelay = BehaviorRelay("")

  init() {
    username = usernameRelay.asProperty()
    password = passwordRelay.asProperty()
  }

  func usernameChanged(to text: String) {
    usernameRelay.accept(text.lowercased())
  }

  func passwordChanged(to text: String) {
    passwordRelay.accept(text)
  }
}
