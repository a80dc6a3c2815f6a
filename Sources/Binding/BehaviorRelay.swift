import InvalidatingCore

/// A value that changes over time, written with `accept(_:)` and observed with
/// `subscribe(_:)`: a ``InvalidatingCore/Property`` that can also be written.
///
/// A relay always has a current value. It never fails and never completes while it lives; when
/// the relay is released, the properties and subscriptions made from it keep its last value and
/// complete (an `AsyncSequence` of its values finishes).
///
/// ```swift
/// let count = BehaviorRelay(0)            // or BehaviorRelay(value: 0), RxRelay's spelling
/// let token = count.subscribe { print($0) } // prints 0 at once
/// count.accept(1)                         // prints 1 before accept returns
/// count.modify { $0 += 1 }                // an atomic read-modify-write: 2
/// count.value                             // 2
/// let label = count.map { "\($0) items" }  // every operator of Property, no asProperty()
/// ```
///
/// Because a relay is a `Property`, it goes wherever one does: `map`, `combineLatest`,
/// `values`, `bind(to:)`. Hand out ``asProperty()`` (or `Property(relay)`) to the code that
/// may only read: it is a separate object, which cannot be cast back to the relay.
///
/// > Important: The engine's contract applies to every write: delivery is synchronous outside a
/// > `batch` and once per sink inside one; a sink that writes a relay has its write queued and
/// > delivered after the current delivery, never nested; `accept(_:)` is safe from any thread.
public final class BehaviorRelay<Value>: Property<Value> {
  /// The node behind the relay (`node`), typed as the source it is, unretained: `node` keeps
  /// it alive as long as the relay. Stored rather than downcast from `node` on each call (the
  /// downcast made `accept` 10-20 ns slower per write in the benchmarks, where the field costs
  /// 8 bytes per relay); unretained, so that making and releasing a relay counts one reference
  /// to its node, not two. (`unowned(unsafe)` would do the same, but each call through it
  /// retained the node.)
  @usableFromInline let sourceReference: Unmanaged<SourceNode<Value>>

  /// Runs `body` with the relay's source, borrowed.
  @inlinable @inline(__always)
  func withSource<Result>(_ body: (SourceNode<Value>) throws -> Result) rethrows -> Result {
    try sourceReference._withUnsafeGuaranteedRef(body)
  }

  /// Creates a relay whose current value is `value`.
  ///
  /// Traces call the relay by the name given with ``InvalidatingCore/Property/named(_:)``, or
  /// else by where it was made: `BehaviorRelay(CounterViewModel.swift:4)`.
  ///
  /// - Parameters:
  ///   - value: The initial value.
  ///   - file: The file that makes the relay, for traces; leave the default.
  ///   - line: The line that makes the relay, for traces; leave the default.
  @inlinable
  public init(_ value: Value, file: StaticString = #fileID, line: UInt = #line) {
    let source = SourceNode(value, origin: .made("BehaviorRelay", file: file, line: line))
    sourceReference = Unmanaged.passUnretained(source)
    super.init(node: source)
  }

  /// Creates a relay whose current value is `value` (RxRelay's spelling of
  /// ``init(_:file:line:)``).
  ///
  /// - Parameters:
  ///   - value: The initial value.
  ///   - file: The file that makes the relay, for traces; leave the default.
  ///   - line: The line that makes the relay, for traces; leave the default.
  public convenience init(value: Value, file: StaticString = #fileID, line: UInt = #line) {
    self.init(value, file: file, line: line)
  }

  /// Creates a relay made by a wrapper: its node's origin names the wrapper.
  @usableFromInline
  init(_ value: Value, origin: NodeOrigin) {
    let source = SourceNode(value, origin: origin)
    sourceReference = Unmanaged.passUnretained(source)
    super.init(node: source)
  }

  deinit {
    // A source that only this relay holds (nothing subscribed to it, or made a property or
    // a derived value of it) is freed with the relay: nothing can see it complete.
    withSource { source in
      if !source.isHeldOnce { source.complete() }
    }
  }

  /// Makes `value` the current value and delivers it to every subscriber and derived property.
  ///
  /// Outside a batch, every affected sink has run when `accept` returns. Inside `batch { }` the
  /// value is current at once and delivered when the outermost batch ends, once per sink. Called
  /// from a sink, the write is queued and delivered right after the current delivery.
  ///
  /// Equal values are delivered too (a relay does not require `Equatable`); use
  /// `removeDuplicates()` downstream to skip them.
  ///
  /// While a ``InvalidatingCore/Tracer`` records, the write is traced from `file:line`;
  /// otherwise they cost nothing.
  ///
  /// - Parameters:
  ///   - value: The new value.
  ///   - file: The file that writes, for traces; leave the default.
  ///   - line: The line that writes, for traces; leave the default.
  /// - Complexity: O(affected sinks + affected derived properties), with no allocation once
  ///   warmed up.
  @inlinable
  public func accept(_ value: Value, file: StaticString = #fileID, line: UInt = #line) {
    withSource { $0.write(value, file: file, line: line) }
  }

  /// Changes the current value in place, atomically, and delivers the result like
  /// `accept(_:)`.
  ///
  /// ```swift
  /// counter.modify { $0 += 1 }   // no increment is lost, whichever threads call it
  /// let old = counter.modify { value in
  ///   defer { value = 0 }
  ///   return value                 // reset, returning what it was
  /// }
  /// ```
  ///
  /// `accept(value + 1)` after reading `value` can lose a write made by another thread in
  /// between; `modify` cannot: no other write to this relay takes effect while `body` runs.
  /// Inside a `batch` the new value is current at once and delivered when the batch ends, as
  /// with `accept(_:)`. If `body` throws, nothing is written.
  ///
  /// > Important: `body` runs while the relay is locked. Keep it short and pure: it must not
  /// > read or write any relay or property, nor subscribe; doing so from `body` deadlocks
  /// > (on Linux it stops with a message naming the mistake). A relay of a one-word value
  /// > (`Int`, `Double`, `Bool`) is read without its lock, so reading one there returns the
  /// > value from before the change instead: read what `body` needs before `modify`.
  ///
  /// - Parameters:
  ///   - file: The file that writes, for traces; leave the default.
  ///   - line: The line that writes, for traces; leave the default.
  ///   - body: Changes the value it is given; the relay then holds the changed value.
  /// - Returns: What `body` returns.
  /// - Complexity: O(affected sinks + affected derived properties), plus `body` and a copy of
  ///   the value (an array is copied before `body` changes it).
  @discardableResult
  public func modify<Result>(
    file: StaticString = #fileID, line: UInt = #line, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    try withSource { try $0.modify(file: file, line: line, body) }
  }

  /// A read-only view of this relay: it has the relay's value and changes, but no `accept`.
  ///
  /// The property is a separate object: code given it cannot cast it back to the relay and
  /// write. It does not keep the relay alive: when the relay is released, the property keeps
  /// the last value and completes.
  ///
  /// - Returns: A property that follows this relay.
  public func asProperty() -> Property<Value> {
    Property(node: node)
  }
}

// Safe: the relay adds no stored state to `Property`'s, whose conformance says why it is safe;
// Swift asks a subclass to restate an `@unchecked` conformance.
extension BehaviorRelay: @unchecked Sendable where Value: Sendable {}

extension Property {
  /// Creates a read-only property that follows `relay` (the same as `relay.asProperty()`).
  ///
  /// `Property(relay)` needs no explicit generic argument: the value type comes from the relay.
  ///
  /// - Parameter relay: The relay to follow. It is not kept alive by the property.
  public convenience init(_ relay: BehaviorRelay<Value>) {
    self.init(node: relay.node)
  }
}
