import Invalidating

/// The state of a sign-up form: what the screen shows, and the only
/// ways to change it.
final class SignUpViewModel {
  @ReadWrite("") var username: Property<String>
  @ReadWrite("") var password: Property<String>

  func usernameChanged(to text: String) {
    $username.accept(text.lowercased())
  }

  func passwordChanged(to text: String) {
    $password.accept(text)
  }
}
