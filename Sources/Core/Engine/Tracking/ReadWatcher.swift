/// Follows the properties that a tracked run read (a view's pass), and calls `onChange` once
/// per delivered change that reaches any of them: the engine side of automatic invalidation.
///
/// Each ``track(owner:_:)`` records what its body reads and, when that differs from the last
/// run, moves the watch to the new set: a dependency read only in a branch no longer taken is
/// dropped. The watch is a derived node whose inputs are the dependencies, so however many of
/// them one batch writes, `onChange` runs once, in the delivery, glitch-free with every other
/// derived value. Dependencies written between their read and the moment the watch reaches
/// them are caught too: `onChange` then runs at once.
///
/// Use it from one thread at a time (a view's, the main actor's); `onChange` runs on the thread
/// that delivers the change. Releasing the watcher ends the watch.
package final class ReadWatcher: @unchecked Sendable {
  // Safe: `dependencies`, `node` and `token` are only touched by `track`, which its caller
  // runs on one thread at a time; `onChange` is immutable.
  private let onChange: @Sendable () -> Void
  /// What traces call the pass whose reads are followed (`BadgeView.layoutSubviews()`).
  private let name: String?
  /// What the last run read, in order.
  private var dependencies: ContiguousArray<AnyNode> = []
  /// The node that follows `dependencies`, and the subscription that calls `onChange`.
  private var node: DerivedNode<UInt64>?
  private var token: SubscriptionToken?

  /// Creates a watcher that calls `onChange` when something a tracked run read changes.
  ///
  /// - Parameter name: What traces call the pass (`BadgeView.layoutSubviews()`): the node that
  ///   follows its reads goes by it, and stands in traces for the pass.
  package init(name: String? = nil, onChange: @escaping @Sendable () -> Void) {
    self.name = name
    self.onChange = onChange
  }

  deinit {
    token?.cancel()
    node?.releaseHandle()
  }

  /// The properties the last run read, for tests and tracing.
  package var watched: ContiguousArray<AnyNode> { dependencies }

  /// Runs `body`, recording what it reads, and watches that from now on.
  ///
  /// - Parameters:
  ///   - owner: The object whose pass this is: reads of its own invalidating properties are
  ///     not recorded (they invalidate it already).
  ///   - body: The pass.
  package func track<Result>(owner: AnyObject?, _ body: () -> Result) -> Result {
    var result: Result?
    ThreadContext.current.withTracker(mode: .latest, expected: dependencies, owner: owner) {
      // A change of an `@Observable` object it read is announced before the object stores
      // it; the pass it requests runs later, and reads the new value.
      ObservableReads.track({ result = body() }) { onChange }
    } finish: { tracker in
      guard tracker.dependenciesChanged else { return }
      let missed = tracker.newDependencyChangedSinceRead()
      watch(tracker.sharedRecorded(), releasingAfterwards: tracker.takeHeld())
      if missed { onChange() }
    }
    return result.unsafelyUnwrapped
  }

  /// Moves the watch to `newDependencies`.
  private func watch(
    _ newDependencies: ContiguousArray<AnyNode>, releasingAfterwards held: [AnyNode]
  ) {
    dependencies = newDependencies
    guard !newDependencies.isEmpty else {
      stopWatching()
      for node in held { node.releaseHandle() }
      return
    }
    // A watch whose inputs all completed completed too, and dropped its subscription: start
    // a new one.
    if let node, node.isCompletedLocked { stopWatching() }
    if let node {
      Engine.relinkInOrder(node, to: Array(newDependencies), releasingAfterwards: held)
      return
    }
    // Its value counts the changes it saw: every recomputation is a change, so its one
    // subscriber hears of each delivered change of any dependency, once.
    let origin = NodeOrigin.kind("tracked reads", isHidden: true)
    let made = DerivedNode<UInt64>(inputs: Array(newDependencies), origin: origin) {
      _, previous in (previous ?? 0) &+ 1
    }
    if let name { made.setName(name) }
    made.retainHandle()
    node = made
    let onChange = onChange
    token = made.subscribe(emitsCurrentValue: false) { _ in onChange() }
    Engine.releaseInOrder(held, after: made)
  }

  /// Ends the watch.
  private func stopWatching() {
    token?.cancel()
    token = nil
    node?.releaseHandle()
    node = nil
  }
}
