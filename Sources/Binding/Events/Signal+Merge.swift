import InvalidatingCore

extension Signal {
  /// A signal of the events of every signal given, in the order they happen.
  ///
  /// ```swift
  /// let refresh = Signal<Void>.merge(pullToRefresh, retryTap, appDidBecomeActive)
  /// ```
  ///
  /// When one change makes several of the inputs fire at once (two signals derived from the
  /// same event), the merged signal delivers one event: the first input's, in argument order.
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
    return _derived(
      from: signals.map(\.node), origin: .kind("merge"), prefix: signals.flatMap(\.prefix)
    ) {
      for input in inputs {
        if let event = ValueNode.read(input, .delivery) { return event }
      }
      return nil
    }
  }

  /// A signal of this signal's events and those of `others`, in the order they happen.
  ///
  /// ```swift
  /// let refresh = pullToRefresh.merge(with: retryTap, appDidBecomeActive)
  /// ```
  ///
  /// - Parameter others: The signals to merge with this one.
  /// - Returns: The merged signal (see ``merge(_:)-(Signal<Element>...)``).
  public func merge(with others: Signal<Element>...) -> Signal<Element> {
    Self.merge([self] + others)
  }
}
