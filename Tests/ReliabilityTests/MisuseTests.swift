import Foundation
import Invalidating
import Testing

/// Each precondition a user can reach stops the process with a message naming the mistake.
///
/// Already covered elsewhere: runaway re-entrancy and a derived value reading itself on the
/// engine (`CoreTests.MisuseTests`), an `@ObjectInvalidating` invalidation on the wrong owner
/// type (`InvalidationTests.ObjectInvalidatingTests`). The engine's other preconditions
/// (a derived node with no inputs, or no first value) cannot be reached through the public
/// API: every operator gives its node an input and a first value.
@Suite("Misuse stops with a message naming the mistake")
struct MisuseTests {
  @Test("Two relays bound to each other through a map never settle: runaway re-entrancy")
  func bindingsInALoop() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let first = BehaviorRelay(0)
      let second = BehaviorRelay(0)
      let tokens = [
        first.asProperty().map { $0 + 1 }.bind(to: second),
        second.asProperty().bind(to: first),
      ]
      first.accept(1)
      _ = tokens
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Runaway re-entrancy"))
    #expect(message.contains("removeDuplicates()"))
  }

  @Test("Reading a property derived from a relay inside that relay's modify names the mistake")
  func readInsideModify() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let relay = BehaviorRelay(0)
      let doubled = relay.asProperty().map { $0 * 2 }
      let token = doubled.subscribe { _ in }
      batch { relay.accept(1) }
      // Waited for itself for ever, with no message.
      relay.modify { $0 = doubled.value + 1 }
      token.cancel()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("A modify body read, wrote or subscribed"))
    #expect(message.contains("Read what the body needs before calling modify"))
  }

  @Test("flatMapLatest switching to a property computed from itself names the cycle")
  func flatMapLatestIntoItself() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      final class Holder: @unchecked Sendable {
        // Safe: set once before the relay is written, on this thread.
        var result: Property<Int>?
      }
      let selector = BehaviorRelay(0)
      let other = BehaviorRelay(10)
      let holder = Holder()
      let result = selector.asProperty().flatMapLatest { value in
        value == 0 ? other.asProperty() : holder.result!.map { $0 + 1 }
      }
      holder.result = result
      let token = result.subscribe { _ in }
      selector.accept(1)
      _ = token
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("depends on itself"))
  }

  @Test("A view added as a subview of itself or of its descendant names the mistake")
  func subviewOfItself() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      await MainActor.run {
        let parent = HeadlessView()
        let child = HeadlessView()
        parent.addSubview(child)
        child.addSubview(parent)
      }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("A view cannot be a subview of itself or of one of its own subviews"))
  }

  @Test("Inserting a subview past the end names the index")
  func subviewIndexOutOfRange() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      await MainActor.run {
        HeadlessView().insertSubview(HeadlessView(), at: 1)
      }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("was given index 1 for a view with 0 subviews"))
  }

  @Test("A render loop run at zero frames per second names the frame rate")
  func zeroFrameRate() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      await RenderLoop().run(framesPerSecond: 0, frames: 1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("the frame rate must be a positive, finite number"))
  }

  @Test("A view set from off the main actor through a generic binding stops with a message")
  func viewTouchedFromTheWrongIsolation() async {
    // Found by this suite; fixed in debug builds, then at compile time. The view bindings
    // (`bind(to: view, keyPath)`, `invalidate(_:whenever:)`) hop to the main actor, and the
    // any-thread `bind(to: object, keyPath)` takes only a `Sendable` key path, which a key path
    // to a `@MainActor` property is not (Tests/CompileFailures/BindMainActorObjectOffMain.swift).
    // Code that forces one through anyway, with an unsafe cast, sets the property on the
    // writer's thread: debug builds check the setter's isolation; release builds skip it.
    #if DEBUG
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        let relay = BehaviorRelay(0)
        let token = await MainActor.run {
          let gauge = MisusedGauge()
          return (gauge, bindAnyObject(relay.asProperty(), gauge, \.level))
        }
        await Task.detached { relay.accept(5) }.value
        _ = token
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("set off the main actor"))
    #endif
  }
}

/// A view for the wrong-isolation test.
private final class MisusedGauge: HeadlessView {
  @ViewInvalidating(.layout) var level = 0
}

/// The any-thread `bind(to: object, keyPath)`, given a key path that is not `Sendable` through an
/// explicit unsafe escape: the race the type system otherwise rejects.
private func bindAnyObject<Object: AnyObject & Sendable>(
  _ property: Property<Int>, _ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Int>
) -> SubscriptionToken {
  // Unsafe on purpose: this is the misuse under test.
  let forced = unsafeBitCast(keyPath, to: (ReferenceWritableKeyPath<Object, Int> & Sendable).self)
  return property.bind(to: object, forced)
}
