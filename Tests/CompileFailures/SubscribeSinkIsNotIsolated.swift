// expect: main actor-isolated property 'title' can not be mutated from a Sendable closure
import Invalidating

// `subscribe` runs its sink on the writer's thread, so a `@MainActor` controller cannot assign
// its own state there; `drive` is the form whose sink is isolated to the main actor.
@MainActor final class ProfileController {
  var title = ""
  var tokens: [SubscriptionToken] = []

  func start(_ name: Property<String>) {
    name.subscribe { [weak self] value in self?.title = value }.store(in: &tokens)
  }
}
