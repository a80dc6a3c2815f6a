import InvalidatingCore
import InvalidatingInvalidation
import InvalidatingPlatform

extension PlatformView {
  /// Invalidates the view in the given ways whenever `property` changes, without storing a
  /// copy of its value.
  ///
  /// Use it for a view that reads a view model's state when it draws or lays out, rather than
  /// keeping a `@ViewInvalidating` copy of it:
  ///
  /// ```swift
  /// final class LoadViewModel {
  ///   @ReadWrite("idle") var summary: Property<String>
  /// }
  /// final class LoadView: PlatformView {
  ///   var model: LoadViewModel?  // drawn from `model?.summary.value`
  /// }
  ///
  /// let model = LoadViewModel()
  /// let loadView = LoadView(frame: .zero)
  /// loadView.model = model
  /// var subscriptions: [SubscriptionToken] = []
  /// loadView.invalidate(.display, whenever: model.summary).store(in: &subscriptions)
  /// ```
  ///
  /// Each change requests the invalidations in argument order, as `@ViewInvalidating` does,
  /// and with the same deduplication: inside a `batch` (or one delivery of the engine) the view
  /// gets each invalidation at most once. The property's current value invalidates nothing;
  /// only later changes do. Every change counts, equal or not: put `removeDuplicates()` before
  /// it to skip repeats.
  ///
  /// The subscription ends when the token is cancelled or released, or when the view is
  /// released (at the next change). It never keeps the view alive.
  ///
  /// > Important: Invalidations run on the main actor. A change written on the main thread
  /// > invalidates before the write returns (or when its batch ends); one written on another
  /// > thread invalidates later, on the main actor, once per burst.
  ///
  /// - Parameters:
  ///   - invalidations: What a change invalidates, in the order to request it: `.layout`,
  ///     `.display`, `.constraints`, `.intrinsicContentSize`, or your own
  ///     ``InvalidatingInvalidation/ViewInvalidatingType``.
  ///   - property: The property whose changes invalidate the view.
  /// - Returns: The token that keeps the subscription alive.
  public func invalidate<each Invalidation: ViewInvalidatingType, Value>(
    _ invalidations: repeat each Invalidation, whenever property: Property<Value>
  ) -> SubscriptionToken {
    let target = _ViewInvalidationTarget(self, ViewInvalidationList(repeat each invalidations))
    let hop = Hop<Void>.toMainActor(.everyInOrder, groupsScheduledFlushes: true) { _ in
      target.invalidate()
    }
    let token = property.node.subscribe(emitsCurrentValue: false) { _ in hop.send(()) }
    target.token = token
    return token
  }
}

/// A weakly held view and the invalidations to request from it, used on the main actor only.
@MainActor
final class _ViewInvalidationTarget {
  private weak var view: PlatformView?
  private let invalidations: ViewInvalidationList
  /// The subscription's token, to end it once the view is gone. Weak: the caller owns it.
  weak var token: SubscriptionToken?

  init(_ view: PlatformView, _ invalidations: ViewInvalidationList) {
    self.view = view
    self.invalidations = invalidations
  }

  /// Requests every invalidation in order (as a `@ViewInvalidating` property does, so the
  /// engine deduplicates them together), or ends the subscription if the view is gone.
  func invalidate() {
    guard let view else {
      token?.cancel()
      return
    }
    ThreadContext.withCurrent { invalidations.invalidate(view, $0) }
  }
}
