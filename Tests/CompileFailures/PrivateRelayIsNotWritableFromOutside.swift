// expect: 'countRelay' is inaccessible due to 'private' protection level
// swift-format-ignore-file
// The pattern that makes state read-only to callers: a private relay writes, a public Property
// reads. Another module cannot reach the relay.
import Invalidating

public final class CounterModel: Sendable {
  private let countRelay = BehaviorRelay(0)
  public let count: Property<Int>

  public init() { count = countRelay.asProperty() }

  public func increment() { countRelay.modify { $0 += 1 } }
}
// ---- client ----
import Invalidating
import Model

let model = CounterModel()
model.countRelay.accept(1)
