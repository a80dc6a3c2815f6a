import InvalidatingCore

extension Signal {
  /// A signal of the events of every signal given, in the order they happen.
  ///
  /// ```swift
  /// let refresh = Signal.merge(pullToRefresh, retryTap, appDidBecomeActive)
  /// ```
  ///
  /// Every event of every input is delivered, on its own: when one change makes several of
  /// the inputs fire at once (two signals derived from the same event), the merged signal
  /// delivers each of their events, in argument order, one after the other, before anything
  /// the change's sinks write (rule 10 of the contract: events are never coalesced).
  ///
  /// - Parameter signals: The signals to merge; at least one.
  /// - Returns: The merged signal. Its events are the inputs' (see ``startWith(_:)`` for the
  ///   events a new subscriber receives first: the inputs', in argument order).
  /// - Complexity: O(number of inputs) per event.
  public static func merge(_ signals: Signal<Element>...) -> Signal<Element> {
    merge(signals)
  }

  /// ``merge(_:)-(Signal<Element>...)`` of an array of signals.
  ///
  /// - Parameter signals: The signals to merge; at least one.
  /// - Returns: The merged signal.
  public static func merge(_ signals: [Signal<Element>]) -> Signal<Element> {
    let inputs = signals.map { Unmanaged.passUnretained($0.node) }
    let waiting = _MergeQueue<Element>()
    let merged = _derived(
      from: signals.map(\.node), origin: .kind("merge"), prefix: signals.flatMap(\.startEvents)
    ) {
      waiting.next(from: inputs)
    }
    waiting.node = merged.node
    return merged
  }

  /// A signal of this signal's events and those of `others`, in the order they happen.
  ///
  /// ```swift
  /// let refresh = pullToRefresh.merged(with: retryTap, appDidBecomeActive)
  /// ```
  ///
  /// (Named `merged`, not `merge`: an instance method named `merge` would stop Swift from
  /// inferring the element type of `Signal.merge(a, b)`.)
  ///
  /// - Parameter others: The signals to merge with this one.
  /// - Returns: The merged signal (see ``merge(_:)-(Signal<Element>...)``).
  public func merged(with others: Signal<Element>...) -> Signal<Element> {
    Self.merge([self] + others)
  }
}

/// The events a merged signal found in one delivery beyond the one it delivers: each is
/// delivered in a follow-up of its own, right after (`Engine.deliverAgainAfterThisEvent`).
final class _MergeQueue<Element>: @unchecked Sendable {
  // Safe: every field is touched only by the merged node's compute in `.delivery` mode, which
  // runs under the domain's drainer role (one thread at a time, ordered by the domain's lock),
  // and `node` is set once, before the node is shared.
  private var waiting: [Element] = []
  private var isFollowUpRequested = false
  /// The merged node; unowned because the node's compute holds this queue.
  unowned(unsafe) var node: AnyNode?

  /// The event to deliver now: the first of those waiting and of the inputs that fired, in
  /// argument order; the rest wait, with a follow-up asked for.
  @inline(__always)
  func next(from inputs: [Unmanaged<ValueNode<Element?>>]) -> Element? {
    var event: Element?
    var fired = false
    for input in inputs {
      guard let value = ValueNode.read(input, .delivery) else { continue }
      fired = true
      if event == nil && waiting.isEmpty { event = value } else { waiting.append(value) }
    }
    guard !waiting.isEmpty else { return event }
    return nextWaiting(event, inputFired: fired)
  }

  /// `next(from:)` with events waiting.
  private func nextWaiting(_ event: Element?, inputFired: Bool) -> Element? {
    // Delivered with no input firing: this is the node's own follow-up.
    if !inputFired { isFollowUpRequested = false }
    let event = event ?? waiting.removeFirst()
    if !waiting.isEmpty, !isFollowUpRequested, let node {
      isFollowUpRequested = true
      Engine.deliverAgainAfterThisEvent(node)
    }
    return event
  }
}
