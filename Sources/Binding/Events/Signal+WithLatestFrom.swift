import InvalidatingCore

extension Signal {
  /// A signal that, on each event, delivers `property`'s value as of that event.
  ///
  /// ```swift
  /// let submitted: Signal<Credentials> = submitTap.withLatestFrom(form)
  /// ```
  ///
  /// The value is the one every sink of the same change sees: inside a `batch` that changes
  /// the property and emits the event, the event carries the batch's final state. A change of
  /// the property alone delivers nothing.
  ///
  /// - Parameters:
  ///   - property: The state to sample.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  /// - Returns: A signal of the property's values, one per event of this signal.
  /// - Complexity: O(1) per event.
  public func withLatestFrom<State>(
    _ property: Property<State>, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<State> {
    withLatestFrom(property, file: file, line: line) { _, state in state }
  }

  /// A signal that, on each event, delivers `combine` of the event and `property`'s value as
  /// of that event (see ``withLatestFrom(_:file:line:)``).
  ///
  /// ```swift
  /// let request = submitTap.withLatestFrom(form) { _, form in LoginRequest(form) }
  /// ```
  ///
  /// - Parameters:
  ///   - property: The state to sample.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - combine: Called once per event, on the delivering thread.
  /// - Returns: The combined signal.
  /// - Complexity: O(1) per event, plus `combine`.
  public func withLatestFrom<State, Combined>(
    _ property: Property<State>, file: StaticString = #fileID, line: UInt = #line,
    _ combine: @escaping @Sendable (Element, State) -> Combined
  ) -> Signal<Combined> {
    let events = Unmanaged.passUnretained(node)
    let state = Unmanaged.passUnretained(property.node)
    let current = property.value
    return Signal<Combined>._derived(
      from: [node, property.node], origin: .made("withLatestFrom", file: file, line: line),
      prefix: startEvents.map { combine($0, current) }
    ) {
      guard let event = ValueNode.read(events, .delivery) else { return nil }
      return combine(event, ValueNode.read(state, .delivery))
    }
  }
}
