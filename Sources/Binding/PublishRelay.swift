import InvalidatingCore

/// A ``Signal`` you can write: `accept(_:)` delivers an event to every subscriber.
///
/// ```swift
/// let taps = PublishRelay<Int>()
/// let token = taps.subscribe { print($0) }   // prints nothing yet
/// taps.accept(5)                           // prints 5 before accept returns
/// ```
///
/// Every event is delivered, in order: inside a `batch`, the events accepted are delivered one
/// by one when the batch ends, after the batch's state changes. No event is kept once it has
/// been delivered. A publish relay has every operator of ``Signal``.
///
/// > Important: `accept(_:)` is safe from any thread and follows the engine's contract:
/// > synchronous outside a batch, queued (not nested) when called from a sink.
public final class PublishRelay<Element>: Signal<Element> {
  /// Creates a relay with no subscribers.
  ///
  /// - Parameters:
  ///   - file: The file that makes the relay, for traces; leave the default.
  ///   - line: The line that makes the relay, for traces; leave the default.
  public init(file: StaticString = #fileID, line: UInt = #line) {
    super.init(
      node: SourceNode<Element?>(
        events: Element.self, origin: .made("PublishRelay", file: file, line: line)))
  }

  deinit {
    source.complete()
  }

  /// The engine node, as the source it is.
  @inlinable
  var source: SourceNode<Element?> { unsafeDowncast(node, to: SourceNode<Element?>.self) }

  /// Delivers `value` to every current subscriber.
  ///
  /// - Parameters:
  ///   - value: The event.
  ///   - file: The file that emits, for traces; leave the default.
  ///   - line: The line that emits, for traces; leave the default.
  /// - Complexity: O(subscribers), with no allocation once warmed up (outside a batch).
  @inlinable
  public func accept(_ value: Element, file: StaticString = #fileID, line: UInt = #line) {
    source.emit(value, file: file, line: line)
  }

  /// A read-only view of this relay: its events, but no `accept`.
  public func asSignal() -> Signal<Element> {
    Signal(node: node)
  }
}

// Safe: as for `Signal`; the relay adds no stored state.
extension PublishRelay: @unchecked Sendable where Element: Sendable {}
