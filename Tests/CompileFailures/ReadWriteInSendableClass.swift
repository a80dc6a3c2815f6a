// expect: stored property '_timeout' of 'Sendable'-conforming class 'Config' is mutable
// Why Sendable models use a private relay and a public Property rather than @ReadWrite: a
// property wrapper's storage is a `var`, which a Sendable class cannot have.
import Invalidating

final class Config: Sendable {
  @ReadWrite(30) var timeout: Property<Int>
}
