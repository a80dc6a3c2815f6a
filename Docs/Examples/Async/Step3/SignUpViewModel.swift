import Invalidating

final class SignUpViewModel: Sendable {
  let username = BehaviorRelay("")
  let password = BehaviorRelay("")
  let usernameStatus: Property<String>
  let signUp: Action<(String, String), String>
  let isWorking: Property<Bool>

  init(service: Service, clock: some Clock<Duration> & Sendable) {
    let activity = ActivityTracker()
    let availability =
      username
      .debounce(for: .milliseconds(300), clock: clock)
      .flatMapLatest(attempts: 2) { (name: String) -> (String, Bool?) in
        guard !name.isEmpty else { return (name, nil) }
        let free = try await activity.track {
          try await service.isAvailable(name)
        }
        return (name, free)
      }
    usernameStatus = availability.map { phase in
      switch phase {
      case .running: "checking…"
      case .success((_, nil)): ""
      case .success((let name, true?)): "\(name) is free"
      case .success((let name, false?)): "\(name) is taken"
      case .failure: "could not check the name"
      }
    }
    let canSignUp = Property.combineLatest(availability, password) {
      phase, password in
      phase.value?.1 == true && password.count >= 8
    }
    signUp = Action(enabledIf: canSignUp) { name, password in
      try await activity.track {
        try await service.signUp(name, password: password)
      }
    }
    isWorking = activity.isActive
  }

  func signUpTapped() {
    signUp.apply((username.value, password.value))
  }
}
