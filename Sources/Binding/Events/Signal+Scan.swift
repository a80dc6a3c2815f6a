import InvalidatingCore

extension Signal {
  /// State accumulated from this signal's events: a property that starts at `initial` and
  /// applies `update` to its value for each event, in order.
  ///
  /// ```swift
  /// let attempts: Property<Int> = submitTap.scan(into: 0) { count, _ in count += 1 }
  /// ```
  ///
  /// Every event counts, also several in one `batch`: the property changes once per event,
  /// and its sinks, like all state, see the result (once per change, or once for the batch).
  ///
  /// - Parameters:
  ///   - initial: The value before any event (with ``startWith(_:)`` events already applied).
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - update: Called once per event, on the delivering thread, with the value to update.
  /// - Returns: The accumulated property.
  /// - Complexity: O(1) per event, plus `update`.
  @inlinable
  public func scan<State>(
    into initial: State, file: StaticString = #fileID, line: UInt = #line,
    _ update: @escaping @Sendable (inout State, Element) -> Void
  ) -> Property<State> {
    var start = initial
    for event in startEvents { update(&start, event) }
    // Safe: `start` is only read when `previous` is nil, which is the creation call, made
    // synchronously on this thread before `DerivedNode.init` returns.
    nonisolated(unsafe) let first = start
    let input = Unmanaged.passUnretained(node)
    let origin = NodeOrigin.made("scan", file: file, line: line)
    let node = DerivedNode<State>(inputs: [node], origin: origin) { mode, previous in
      guard let previous else { return first }
      guard mode == .delivery, let event = ValueNode.read(input, .delivery) else { return nil }
      var next = previous
      update(&next, event)
      return next
    }
    return Property(node: node)
  }
}
