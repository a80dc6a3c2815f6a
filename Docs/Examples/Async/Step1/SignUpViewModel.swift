import Invalidating

final class SignUpViewModel: Sendable {
  let username = BehaviorRelay("")
  let usernameStatus: Property<String>

  init(service: Service, clock: some Clock<Duration> & Sendable) {
    let availability =
      username
      .debounce(for: .milliseconds(300), clock: clock)
      .flatMapLatest { (name: String) -> (String, Bool?) in
        guard !name.isEmpty else { return (name, nil) }
        return (name, try await service.isAvailable(name))
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
  }
}
