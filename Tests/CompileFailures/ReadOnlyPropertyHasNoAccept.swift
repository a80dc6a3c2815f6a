// expect: value of type 'Property<Int>' has no member 'accept'
// swift-format-ignore-file
// A Property cannot be written: it has no accept(_:).
import Invalidating

public final class CounterModel: Sendable {
  private let countRelay = BehaviorRelay(0)
  public let count: Property<Int>

  public init() { count = countRelay.asProperty() }
}
// ---- client ----
import Invalidating
import Model

let model = CounterModel()
model.count.accept(1)
