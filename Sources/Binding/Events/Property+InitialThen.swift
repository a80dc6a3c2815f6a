import InvalidatingCore

extension Property {
  /// A property that holds `initial`, then each event of `signal`: the latest event, as
  /// state (ReactiveSwift's `Property(initial:then:)`, a signal held).
  ///
  /// ```swift
  /// let lastMessage = Property(initial: "", then: messages)
  /// let results = Property(initial: [], then: searches.replaceError(with: []))
  /// ```
  ///
  /// The property changes once per event (each event is delivered, so a `batch` of events
  /// changes it once per event, and its sinks, like all state, see the result). The signal's
  /// start events (``InvalidatingBinding/Signal/startWith(_:)``, a property's value) are
  /// applied at once.
  ///
  /// - Parameters:
  ///   - initial: The value before any event.
  ///   - signal: The events to hold.
  public convenience init(initial: Value, then signal: Signal<Value>) {
    let held = signal.scan(into: initial) { value, event in value = event }
    self.init(node: held.node)
    // Released only now: a node whose last handle goes leaves the graph, and a handle taken
    // after that does not bring it back.
    withExtendedLifetime(held) {}
  }
}
