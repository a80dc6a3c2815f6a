// Combine's other top-level names that a view model file importing both Combine and
// Invalidating could clash with; declared so that the name-collision probe
// (Probes/NameCollisionProbe.swift) sees them. Signatures as in the SDK, bodies empty.

/// A publisher that exposes a method for outside callers to publish elements.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
  /// Sends a value to the subscriber.
  func send(_ value: Output)
}

/// A subject that broadcasts elements to downstream subscribers.
final public class PassthroughSubject<Output, Failure: Error>: Subject {
  /// Creates a subject.
  public init() {}

  /// Sends a value to the subscriber.
  final public func send(_ input: Output) {}
}

/// A protocol that declares a type that can receive input from a publisher.
public protocol Subscriber<Input, Failure> {
  /// The kind of values this subscriber receives.
  associatedtype Input
  /// The kind of errors this subscriber might receive.
  associatedtype Failure: Error
}

/// A type-erasing cancellable object that executes a provided closure when canceled.
final public class AnyCancellable: Cancellable, Hashable {
  /// Initializes the cancellable object with the given cancel-time closure.
  public init(_ cancel: @escaping () -> Void) {}

  /// Cancel the activity.
  final public func cancel() {}

  /// Whether the two are the same cancellable object.
  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

  /// Hashes the object's identity.
  final public func hash(into hasher: inout Hasher) {}
}

/// A type that publishes a property marked with an attribute.
@propertyWrapper
public struct Published<Value> {
  /// Creates the published instance with an initial wrapped value.
  public init(initialValue: Value) { storage = initialValue }

  /// Creates the published instance with an initial wrapped value.
  public init(wrappedValue: Value) { storage = wrappedValue }

  private var storage: Value

  /// The property for which this instance exposes a publisher.
  public var wrappedValue: Value {
    get { storage }
    set { storage = newValue }
  }
}

/// A publisher that eventually produces a single value and then finishes or fails.
final public class Future<Output, Failure: Error>: Publisher {}

/// A publisher that never publishes any values, and optionally finishes immediately.
public struct Empty<Output, Failure: Error>: Publisher {
  /// Creates an empty publisher.
  public init(completeImmediately: Bool = true) {}
}

/// A publisher that immediately terminates with the specified error.
public struct Fail<Output, Failure: Error>: Publisher {
  /// Creates a publisher that immediately terminates with the specified failure.
  public init(error: Failure) {}
}

/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
public struct Record<Output, Failure: Error>: Publisher {}

/// A protocol that defines when and how to execute a closure.
public protocol Scheduler {}

/// A scheduler for performing synchronous actions.
public struct ImmediateScheduler: Scheduler, Sendable {
  /// The shared instance of the immediate scheduler.
  public static let shared = ImmediateScheduler()
}

/// A unique identifier for identifying publisher streams.
public struct CombineIdentifier: Hashable {
  /// Creates a unique Combine identifier.
  public init() {}
}
