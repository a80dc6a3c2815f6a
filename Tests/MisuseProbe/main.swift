// invalidating-misuse-probe: makes one misuse, named by its argument, so that
// scripts/check-misuse-messages can check that a release build stops with a message naming the
// mistake (ARCHITECTURE.md, rule 13). `--list` prints every name with the words its message must
// contain. Each misuse here is one stop of the sources; the stops not listed cannot be reached
// by a mistake (a failed pthread call, an unavailable accessor, a base method every subclass
// overrides) or are checked in debug builds only (a view set off the main actor).
import Invalidating
import InvalidatingCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One misuse: its name, words its message must contain, and the code that makes it.
struct Misuse {
  let name: String
  let expected: String
  let make: @MainActor () async -> Void
}

/// Lets a transform refer to the property it computes, which is the mistake under test.
final class Holder: @unchecked Sendable {
  // Safe: written once before the relay is written, on the one thread the probe runs.
  var property: Property<Int>?
}

final class Fragment: Invalidatable {
  struct Rerender: ObjectInvalidatingType {
    func invalidate(object fragment: Fragment) {}
  }
}

final class NotAFragment: Invalidatable {
  @ObjectInvalidating(Fragment.Rerender()) var value = 0
}

let misuses: [Misuse] = [
  Misuse(name: "read-inside-modify", expected: "A modify body read, wrote or subscribed") {
    let relay = BehaviorRelay(0)
    let doubled = relay.asProperty().map { $0 * 2 }
    let token = doubled.subscribe { _ in }
    relay.modify { $0 = doubled.value + 1 }
    token.cancel()
  },
  Misuse(name: "runaway-reentrancy", expected: "Runaway re-entrancy") {
    let relay = BehaviorRelay(0)
    let token = relay.subscribe { relay.accept($0 + 1) }
    token.cancel()
  },
  Misuse(name: "derived-value-reads-itself", expected: "A derived value depends on itself") {
    let relay = BehaviorRelay(0)
    let holder = Holder()
    holder.property = relay.asProperty().map { $0 + (holder.property?.value ?? 0) }
    batch {
      relay.accept(1)
      _ = holder.property?.value
    }
  },
  Misuse(
    name: "computed-property-reads-itself",
    expected: "A computed property (made at invalidating_misuse_probe/main.swift:"
  ) {
    let relay = BehaviorRelay(0)
    let holder = Holder()
    let computed = Property { relay.value + (holder.property?.value ?? 0) }
    holder.property = computed
    let token = computed.subscribe { _ in }
    relay.accept(1)  // its computation now reads itself
    token.cancel()
  },
  // Stops in the derived value's own check (computing the new inner property reads the
  // flatMapLatest); the switch's check (Propagation.swift) names the same mistake.
  Misuse(name: "flatmaplatest-into-itself", expected: "depends on itself") {
    let selector = BehaviorRelay(0)
    let other = BehaviorRelay(10)
    let holder = Holder()
    let result = selector.asProperty().flatMapLatest { value in
      value == 0 ? other.asProperty() : holder.property!.map { $0 + 1 }
    }
    holder.property = result
    let token = result.subscribe { _ in }
    selector.accept(1)
    token.cancel()
  },
  Misuse(
    name: "derived-node-without-inputs",
    expected: "A derived value needs at least one input property"
  ) {
    _ = DerivedNode<Int>(inputs: []) { _, _ in 0 }
  },
  Misuse(
    name: "derived-node-without-first-value",
    expected: "A derived node's compute must return a value when previous is nil"
  ) {
    _ = DerivedNode<Int>(inputs: [SourceNode(0)]) { _, _ in nil }
  },
  Misuse(
    name: "object-invalidator-for-another-class",
    expected: "Rerender invalidates Fragment, but the property belongs to NotAFragment"
  ) {
    NotAFragment().value = 1
  },
  Misuse(
    name: "subview-of-itself",
    expected: "A view cannot be a subview of itself or of one of its own subviews"
  ) {
    let parent = HeadlessView()
    let child = HeadlessView()
    parent.addSubview(child)
    child.addSubview(parent)
  },
  Misuse(
    name: "subview-index-out-of-range", expected: "was given index 1 for a view with 0 subviews"
  ) {
    HeadlessView().insertSubview(HeadlessView(), at: 1)
  },
  Misuse(name: "zero-frame-rate", expected: "the frame rate must be a positive, finite number") {
    await RenderLoop().run(framesPerSecond: 0, frames: 1)
  },
  Misuse(name: "async-work-no-attempts", expected: "attempts must be at least 1") {
    let queries = PublishRelay<String>()
    _ = queries.flatMapLatest(attempts: 0) { text in text }
  },
]

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--list" {
  for misuse in misuses { print("\(misuse.name)\t\(misuse.expected)") }
  exit(0)
}
guard let name = arguments.first, let misuse = misuses.first(where: { $0.name == name }) else {
  print("usage: invalidating-misuse-probe --list | <misuse>")
  exit(2)
}
await misuse.make()
print("\(name): no stop")
exit(0)
