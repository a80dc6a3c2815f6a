import InvalidatingCore
import Observation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Property {
  /// Creates a property that follows `object[keyPath: keyPath]`, an `@Observable` object's
  /// property, as Observation reports its changes.
  ///
  /// ```swift
  /// @Observable final class Settings { var fontSize = 14.0 }
  /// let fontSize = Property(observing: settings, \.fontSize)
  /// let token = fontSize.subscribe { print($0) }   // 14.0, then each change
  /// ```
  ///
  /// Observation announces a change before the object stores it, so the property reads the
  /// new value on the main actor right after: changes arrive asynchronously, one main-actor
  /// turn after the write, and several writes before that turn are seen once, with the newest
  /// value.
  ///
  /// The property holds `object` weakly; when the object is released the property keeps its
  /// last value. Releasing the property (and its subscriptions) stops the observation.
  ///
  /// > Important: Write the observed object on the main actor, where the property reads it.
  ///
  /// - Parameters:
  ///   - object: The observable object.
  ///   - keyPath: The property of `object` to follow.
  ///   - file: The file that makes the property, for traces; leave the default.
  ///   - line: The line that makes the property, for traces; leave the default.
  @MainActor
  public convenience init<Object: Observable & AnyObject>(
    observing object: Object, _ keyPath: KeyPath<Object, Value>,
    file: StaticString = #fileID, line: UInt = #line
  ) {
    let observer = _ObservationFollower(object, keyPath)
    let source = observer.source
    let owner: any AnyObject & Sendable = observer
    // The derived node's compute owns the follower, so it lives exactly as long as the graph
    // refers to this property.
    self.init(
      node: DerivedNode(inputs: [source], origin: .made("observing", file: file, line: line)) {
        mode, _ in
        withExtendedLifetime(owner) { source.read(mode) }
      })
  }
}

/// Re-reads an observed key path after each change Observation announces, and writes it to a
/// source node.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
final class _ObservationFollower<Object: AnyObject & Observable, Value> {
  nonisolated let source: SourceNode<Value>
  private weak var object: Object?
  private let keyPath: KeyPath<Object, Value>

  init(_ object: Object, _ keyPath: KeyPath<Object, Value>) {
    self.object = object
    self.keyPath = keyPath
    source = SourceNode(object[keyPath: keyPath], origin: .kind("@Observable"))
    track()
  }

  deinit {
    source.complete()
  }

  /// Reads the value while registering for its next change (Observation's registrations
  /// fire once), and returns it.
  @discardableResult
  private func track() -> Value? {
    guard let object else { return nil }
    let keyPath = keyPath
    return withObservationTracking {
      object[keyPath: keyPath]
    } onChange: { [weak self] in
      Task { @MainActor in self?.refresh() }
    }
  }

  private func refresh() {
    if let value = track() { source.write(value, file: #fileID, line: #line) }
  }
}
