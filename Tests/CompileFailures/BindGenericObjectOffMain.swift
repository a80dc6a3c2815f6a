// expect: call to main actor-isolated instance method 'bind(to:_:)' in a synchronous nonisolated context
import Invalidating

// The race this used to allow: main-actor code forms a key path to a `@MainActor` property and
// hands it to generic code, whose any-thread binding then assigned on the writer's thread. The
// any-thread `bind(to:_:)` needs a `Sendable` object and key path; without them, only the
// main-actor overload is left, and generic code off the main actor cannot call it.
@MainActor final class ProfileController {
  var title = ""
}

func bindAnything<Object: AnyObject>(
  _ name: Property<String>, _ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, String>
) -> SubscriptionToken {
  name.bind(to: object, keyPath)
}

@MainActor func start(_ name: Property<String>, _ controller: ProfileController) {
  _ = bindAnything(name, controller, \.title)
}
