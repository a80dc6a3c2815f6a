import Invalidating

let form = SignUpViewModel()

let submitToken = form.canSubmit.subscribe { canSubmit in
  print("submit button enabled: \(canSubmit)")
}
let hintToken = form.hint.subscribe { hint in
  print("hint: \(hint)")
}

print("-- restore a draft")
form.restore(username: "Ada", password: "analytical engine")

print("-- clear")
form.clear()

print("-- type a short password")
form.usernameChanged(to: "Grace")
form.passwordChanged(to: "cobol")
