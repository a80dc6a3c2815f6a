import Invalidating

/// The state of a sign-up form: what the screen shows, and the only
/// ways to change it.
final class SignUpViewModel {
  @ReadWrite("") var username: Property<String>
  @ReadWrite("") var password: Property<String>

  /// Whether the form may be sent: a user name, and a password of at
  /// least eight characters.
  private(set) lazy var canSubmit: Property<Bool> =
    Property.combineLatest(username, password)
    .map { username, password in
      !username.isEmpty && password.count >= 8
    }
    .removeDuplicates()

  /// The line under the form.
  private(set) lazy var hint: Property<String> =
    Property.combineLatest(username, canSubmit)
    .map { username, canSubmit in
      if username.isEmpty { return "Choose a user name" }
      return canSubmit
        ? "Ready, \(username)" : "Your password needs eight characters"
    }

  func usernameChanged(to text: String) {
    $username.accept(text.lowercased())
  }

  func passwordChanged(to text: String) {
    $password.accept(text)
  }
}
