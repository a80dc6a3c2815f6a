import Invalidating

let form = SignUpViewModel()

let submitToken = form.canSubmit.subscribe { canSubmit in
  print("submit button enabled: \(canSubmit)")
}
let hintToken = form.hint.subscribe { hint in
  print("hint: \(hint)")
}

form.usernameChanged(to: "Ada")
form.passwordChanged(to: "engine")
form.passwordChanged(to: "analytical engine")
form.passwordChanged(to: "analytical engine!")
