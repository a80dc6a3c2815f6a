// expect: call to main actor-isolated instance method 'bind(to:_:)' in a synchronous nonisolated context
import Invalidating

// Code off the main actor cannot bind a `@MainActor` object: the only `bind(to:_:)` that takes
// its key path is the main-actor one, which assigns on the main actor.
@MainActor final class ProfileController {
  var title = ""
}

func bindOffTheMainActor(_ name: Property<String>, _ controller: ProfileController) {
  _ = name.bind(to: controller, \.title)
}
