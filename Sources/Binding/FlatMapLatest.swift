import InvalidatingCore

extension Property {
  /// A property that follows the property `transform` returns for this property's current
  /// value, switching to a new one whenever this property changes.
  ///
  /// ```swift
  /// // The name of whichever user is selected, following that user's renames.
  /// let selectedName = selectedUser.flatMapLatest { user in user.name }
  /// ```
  ///
  /// `transform` runs once per delivered change of this property (and on demand when `value`
  /// is read while a write waits for delivery). Once it has switched, the result no longer
  /// follows the previous inner property: changes to it are not delivered.
  ///
  /// The switch is glitch-free: when one write changes both this property and the new inner
  /// property (they share a source), subscribers see one value, computed from both new
  /// values.
  ///
  /// - Parameter transform: Returns the property to follow for a value. It may return a
  ///   property it has returned before.
  /// - Returns: A property with the current inner property's value.
  /// - Complexity: O(1) per change of the inner property; a switch costs O(inputs of the
  ///   derived properties downstream) when it has to re-rank them.
  public func flatMapLatest<Inner>(
    _ transform: @escaping @Sendable (Value) -> Property<Inner>
  ) -> Property<Inner> {
    // The outer map computes the inner property once per change, glitch-free and in order; the
    // switching node follows whichever inner property the map currently holds.
    let inners = map(transform)
    let outer = inners.node
    let first = outer.read(.latest)
    let link = _SwitchLink(following: first.node)
    let result = Property<Inner>._derived(from: [outer, first.node]) { mode, _ in
      let inner = outer.read(mode)
      guard mode == .delivery else { return inner.node.read(.latest) }
      guard link.needsSwitch(to: inner.node), let node = link.owner else {
        return inner.node.read(.delivery)
      }
      let switchedNow = Engine.switchInputs(of: node, to: [outer, inner.node])
      return switchedNow ? inner.node.read(.delivery) : inner.node.read(.latest)
    }
    link.owner = result.node
    return result
  }
}

/// The switching node's record of the inner node it follows.
///
/// Read and written by the domain's drainer role when the node computes in `.delivery` mode,
/// and by the creating thread before the node is returned; the lock orders the two.
@usableFromInline
final class _SwitchLink: @unchecked Sendable {
  // Safe: both fields are only touched while `lock` is held.
  private let lock = Lock()
  private var followed: AnyNode
  private weak var _owner: AnyNode?

  init(following node: AnyNode) {
    followed = node
  }

  /// The switching node, once created; weak because the node's compute holds this link.
  var owner: AnyNode? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return _owner
    }
    set {
      lock.lock()
      _owner = newValue
      lock.unlock()
    }
  }

  /// Records `node` as the followed inner node; returns whether it differs from the previous
  /// one and the owner exists to switch.
  func needsSwitch(to node: AnyNode) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard followed !== node, _owner != nil else { return false }
    followed = node
    return true
  }
}
