// expect: call to main actor-isolated instance method 'bind(to:_:)' in a synchronous nonisolated context
import Invalidating

// An object that is not `Sendable` may not be set from whichever thread writes the property:
// off the main actor it cannot be bound at all (on the main actor it is bound there).
final class Label {
  var text = ""
}

func bindOffTheMainActor(_ name: Property<String>, _ label: Label) {
  _ = name.bind(to: label, \.text)
}
