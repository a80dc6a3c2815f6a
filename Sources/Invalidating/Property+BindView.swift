import InvalidatingBinding
import InvalidatingCore
import InvalidatingPlatform

extension Property where Value: Sendable {
  /// Assigns the property's value to a property of `view` now and on every change, on the main
  /// actor, holding `view` weakly.
  ///
  /// ```swift
  /// final class InboxViewModel {
  ///   @ReadWrite("Inbox") var title: Property<String>
  /// }
  /// final class BadgeView: PlatformView {
  ///   @ViewInvalidating(.display, .intrinsicContentSize) var text = ""
  /// }
  ///
  /// let viewModel = InboxViewModel()
  /// let badge = BadgeView(frame: .zero)
  /// var subscriptions: [SubscriptionToken] = []
  /// viewModel.title.bind(to: badge, \.text).store(in: &subscriptions)
  /// ```
  ///
  /// Bound to a `@ViewInvalidating` property, the binding invalidates the view through the
  /// wrapper: a change to an equal value invalidates nothing, and inside a `batch` (or one
  /// delivery of the engine) the view gets each invalidation at most once, however many bound
  /// properties changed.
  ///
  /// The binding ends when the token is cancelled or released, or when `view` is released (at
  /// the next change, it finds the view gone and ends itself). It never keeps `view` alive, so
  /// storing the token in the view makes no cycle.
  ///
  /// > Important: Views belong to the main actor, and so does every assignment. A change
  /// > written on the main thread is assigned at once, before the write returns (or when its
  /// > batch ends). A change written on another thread is assigned later, on the main actor,
  /// > in the order of the writes; a burst of them is assigned as one batch.
  ///
  /// - Parameters:
  ///   - view: The view to update. Held weakly.
  ///   - keyPath: The property of `view` to assign, typically a `@ViewInvalidating` one.
  /// - Returns: The token that keeps the binding alive.
  @MainActor
  public func bind<View: PlatformView>(
    to view: View, _ keyPath: ReferenceWritableKeyPath<View, Value>
  ) -> SubscriptionToken {
    let assignment = _MainActorTarget(view, keyPath)
    // Every value, in order: each view sees its own history (see `Hop`).
    let hop = Hop<Value>.toMainActor(.everyInOrder, groupsScheduledFlushes: true) { value in
      assignment.assign(value)
    }
    let token = subscribe { value in hop.send(value) }
    assignment.token = token
    return token
  }
}
