// Apple platforms only: Combine does not exist on Linux, so this file is not compiled there.
#if canImport(Combine)
  import Combine

  extension ObservableObjectPublisher {
    /// Sends, on the main actor, once per `batch` (once per delivered change outside one) in
    /// which any of `properties` changed: the `objectWillChange` of a view model for SwiftUI
    /// before iOS 17 and macOS 14, where `@StateObject` and `@ObservedObject` redraw a view
    /// when it fires.
    ///
    /// ```swift
    /// import Combine
    /// import Invalidating
    ///
    /// final class CounterViewModel: ObservableObject {
    ///   let objectWillChange = ObservableObjectPublisher()
    ///   let count: Property<Int>
    ///   let isEven: Property<Bool>
    ///   private let countRelay: BehaviorRelay<Int>
    ///   private let subscriptions = SubscriptionBag()
    ///
    ///   init() {
    ///     let countRelay = BehaviorRelay(0)
    ///     self.countRelay = countRelay
    ///     count = countRelay.asProperty()
    ///     isEven = Property { countRelay.value % 2 == 0 }
    ///     objectWillChange.send(whenAnyChanges: count, isEven, in: subscriptions)
    ///   }
    ///
    ///   func increment() { countRelay.modify { $0 += 1 } }
    /// }
    /// ```
    ///
    /// On iOS 17, macOS 14 and later, SwiftUI sees the reads of every `Property` in `body`
    /// through Observation, with no publisher; this is for the systems before.
    ///
    /// SwiftUI reads the model again after the publisher fires, on the main actor: a change
    /// delivered there sends at once, a change delivered on another thread sends in the next
    /// main-actor turn, once however many changes came before that turn. A property whose
    /// value is `Equatable` and computes an equal value does not send.
    ///
    /// - Parameters:
    ///   - properties: The properties whose changes the view model announces.
    ///   - bag: The bag that ends the subscription (keep it in the view model).
    public func send<each Value: Sendable>(
      whenAnyChanges properties: repeat Property<each Value>, in bag: SubscriptionBag
    ) {
      var reads: [@Sendable () -> Void] = []
      for property in repeat each properties { reads.append { _ = property.value } }
      // Computed once per delivered event in which any of them changed, however many did.
      let anyChange = Property<Void> { [reads] in for read in reads { read() } }
      let publisher = _MainActorPublisher(self)
      let hop = Hop<Void>.toMainActor(.latest) { _ in publisher.object.send() }
      anyChange.node.subscribe(in: bag, emitsCurrentValue: false) { _ in hop.send(()) }
    }
  }

  /// A publisher handed to the main actor, where alone it is used.
  private final class _MainActorPublisher: @unchecked Sendable {
    // Safe: `object` is immutable here and only sent to on the main actor.
    let object: ObservableObjectPublisher
    init(_ object: ObservableObjectPublisher) { self.object = object }
  }
#endif
