import Invalidating

let form = SignUpViewModel()

let token = form.username.subscribe { name in
  print("username: \"\(name)\"")
}

form.usernameChanged(to: "Ada")
print("value: \(form.username.value)")
