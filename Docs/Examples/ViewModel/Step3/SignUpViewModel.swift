import Invalidating

/// The state of a sign-up form: what the screen shows, and the only
/// ways to change it.
final class SignUpViewModel: Sendable {
  /// What the screen reads: properties, which have no `accept`.
  let username: Property<String>
  let password: Property<String>
  /// Whether the form may be sent: a user name, and a password of at
  /// least eight characters.
  let canSubmit: Property<Bool>
  /// The line under the form.
  let hint: Property<String>

  /// What only the view model writes: relays nobody else can reach.
  private let usernameRelay = BehaviorRelay("")
  private let passwordRelay = BehaviorRelay("")

  init() {
    username = usernameRelay.asProperty()
    password = passwordRelay.asProperty()
    canSubmit = Property.combineLatest(usernameRelay, passwordRelay)
      .map { username, password in
        !username.isEmpty && password.count >= 8
      }
      .removeDuplicates()
    hint = Property.combineLatest(usernameRelay, canSubmit)
      .map { username, canSubmit in
        if username.isEmpty { return "Choose a user name" }
        return canSubmit
          ? "Ready, \(username)"
          : "Your password needs eight characters"
      }
  }

  func usernameChanged(to text: String) {
    usernameRelay.accept(text.lowercased())
  }

  func passwordChanged(to text: String) {
    passwordRelay.accept(text)
  }
}
