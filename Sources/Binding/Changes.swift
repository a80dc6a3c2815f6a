import InvalidatingCore

extension Property {
  /// This property's changes, without its current value: a ``InvalidatingBinding/Signal`` of
  /// the values it changes to from now on.
  ///
  /// ```swift
  /// let token = count.changes.subscribe { print($0) }   // prints nothing until a change
  /// for await value in count.changes.values { print(value) }   // changes from now on
  /// ```
  ///
  /// Use it where the current value is not an event: reacting to a user's edit, not to the
  /// state the screen opened with. Like all state, the property coalesces: a `batch` that
  /// changes it several times is one change here, with the final value; a subscriber is given
  /// only changes made after it subscribed. A subscriber of `changes` is a subscriber of the
  /// property: it runs in subscription order with the property's other sinks.
  ///
  /// - Complexity: O(1) per change.
  public var changes: Signal<Value> {
    let input = Unmanaged.passUnretained(node)
    // For operators: a node of events recomputed only in a delivery that changed the property.
    let events = DerivedNode<Value?>(eventInputs: [node], origin: .kind("changes")) { mode, _ in
      .some(mode == .delivery ? ValueNode.read(input, .delivery) : nil)
    }
    return Signal(node: events, changesOf: node)
  }
}
