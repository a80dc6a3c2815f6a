// expect: type 'ReferenceWritableKeyPath<ProfileController, String>' does not conform to the 'Sendable' protocol
import Invalidating

// Generic code that asks for what the any-thread `bind(to:_:)` needs (a `Sendable` object and
// key path) cannot be handed a `@MainActor` property either: a key path to an actor-isolated
// property is not `Sendable` (SE-0418), though the `@MainActor` class itself is.
@MainActor final class ProfileController {
  var title = ""
}

func bindFromAnyThread<Object: AnyObject & Sendable>(
  _ name: Property<String>, _ object: Object,
  _ keyPath: ReferenceWritableKeyPath<Object, String> & Sendable
) -> SubscriptionToken {
  name.bind(to: object, keyPath)
}

@MainActor func start(_ name: Property<String>, _ controller: ProfileController) {
  _ = bindFromAnyThread(name, controller, \.title)
}
