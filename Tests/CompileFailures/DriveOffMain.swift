// expect: call to main actor-isolated instance method 'drive' in a synchronous nonisolated context
import Invalidating

// `drive` belongs to the main actor: it delivers the current value before it returns, on the
// main actor, so code elsewhere must await it (or use `observe(on:)`).
@MainActor final class ProfileController {
  var title = ""
}

func driveOffTheMainActor(_ name: Property<String>, _ controller: ProfileController) {
  _ = name.drive { controller.title = $0 }
}
