import InvalidatingBinding
import InvalidatingCore

extension Property where Value: Sendable {
  /// Assigns the property's value to a property of a main-actor `object` now and on every
  /// change, on the main actor, holding `object` weakly.
  ///
  /// ```swift
  /// @MainActor final class ProfileController {
  ///   var title = ""
  ///   var tokens: [SubscriptionToken] = []
  /// }
  ///
  /// let controller = ProfileController()
  /// model.name.bind(to: controller, \.title).store(in: &controller.tokens)
  /// ```
  ///
  /// Called from the main actor, `bind(to:_:)` picks this overload for any object that is not
  /// `Sendable` or whose key path is not (a `@MainActor` class's properties): the assignment
  /// then runs on the main actor, as ``drive(_:)`` runs its sink. A change written on the main
  /// actor is assigned before the write returns (or when its `batch` ends); one written on
  /// another thread is assigned later, on the main actor, and a burst of them once, with the
  /// newest value. A view gets the overload for views instead, which assigns every value in
  /// order and deduplicates the invalidations of a burst.
  ///
  /// The binding ends when the token is cancelled or released, or when `object` is released
  /// (at the next change, it finds the object gone and ends itself). It never keeps `object`
  /// alive, so storing the token in the object makes no cycle.
  ///
  /// > Important: Code that is not on the main actor cannot bind a `@MainActor` object: a key
  /// > path to its property is not `Sendable` there, so the any-thread overload does not apply,
  /// > and this one must be awaited. That is the point: the assignment never runs off the main
  /// > actor.
  ///
  /// - Parameters:
  ///   - object: The object to update, on the main actor. Held weakly.
  ///   - keyPath: The property of `object` to assign.
  /// - Returns: The token that keeps the binding alive.
  @MainActor
  public func bind<Object: AnyObject>(
    to object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>
  ) -> SubscriptionToken {
    let target = _MainActorTarget(object, keyPath)
    let token = drive { value in target.assign(value) }
    target.token = token
    return token
  }
}

/// A weakly held object (a view, or any main-actor object) and the key path a main-actor
/// binding assigns, used on the main actor only.
@MainActor
final class _MainActorTarget<Object: AnyObject, Value> {
  private weak var object: Object?
  private let keyPath: ReferenceWritableKeyPath<Object, Value>
  /// The binding's token, to end it once the object is gone. Weak: the caller owns the token.
  weak var token: SubscriptionToken?

  init(_ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>) {
    self.object = object
    self.keyPath = keyPath
  }

  /// Assigns `value`, or ends the binding if the object is gone.
  func assign(_ value: Value) {
    guard let object else {
      token?.cancel()
      return
    }
    object[keyPath: keyPath] = value
  }
}
