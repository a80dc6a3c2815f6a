import Invalidating

// A relay holds the current value and tells its subscribers about
// every new one.
let username = BehaviorRelay("")

let token = username.subscribe { name in
  print("username: \"\(name)\"")
}

username.accept("ada")
username.accept("ada.lovelace")
print("value after accept: \(username.value)")

token.cancel()
username.accept("nobody is listening")
print("value after cancel: \(username.value)")
