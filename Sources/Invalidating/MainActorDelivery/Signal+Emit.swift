import InvalidatingBinding
import InvalidatingCore

extension Signal where Element: Sendable {
  /// Calls the main-actor `sink` with every event from now on, each one, in order: at once for
  /// an event delivered on the main thread, and in one main-actor task, in order, for events
  /// delivered on other threads (RxCocoa's `Signal.emit`).
  ///
  /// ```swift
  /// @MainActor final class LoginController {
  ///   private(set) var banner = ""
  ///   var tokens: [SubscriptionToken] = []
  ///   init(model: LoginViewModel) {
  ///     model.loggedIn.emit { [weak self] name in self?.banner = "Welcome, \(name)" }
  ///       .store(in: &tokens)
  ///   }
  /// }
  /// ```
  ///
  /// Unlike ``InvalidatingCore/Property/drive(_:)``, nothing is coalesced: events that arrive
  /// while the main actor is busy wait, in order, and each reaches `sink`.
  ///
  /// - Parameter sink: Called on the main actor.
  /// - Returns: The token that keeps the subscription alive. After it is cancelled or released,
  ///   events still waiting for the main actor are dropped.
  @MainActor
  public func emit(_ sink: @escaping @MainActor @Sendable (Element) -> Void) -> SubscriptionToken {
    // The engine's sink is the hop's only owner: cancelling releases it, and its flushes hold
    // it weakly, so waiting events are dropped.
    let hop = Hop<Element>.toMainActor(.everyInOrder, groupsScheduledFlushes: true, run: sink)
    return subscribe { event in hop.send(event) }
  }
}
