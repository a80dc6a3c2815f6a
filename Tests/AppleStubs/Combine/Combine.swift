// A stand-in for Apple's Combine: the declarations the package's Combine bridge uses, with the
// SDK's Swift signatures (generic parameters, argument labels, optional closures with `nil`
// defaults). Type-checking only: no body does anything, and nothing here is linked or run.

/// A type that publishes values over time.
public protocol Publisher<Output, Failure> {
  /// The kind of values published.
  associatedtype Output
  /// The kind of errors published.
  associatedtype Failure: Error
}

/// A protocol representing the connection of a subscriber to a publisher.
public protocol Subscription: Cancellable {}

/// A protocol indicating that an activity or action supports cancellation.
public protocol Cancellable {
  /// Cancels the activity.
  func cancel()
}

/// A namespace for types that serve as subscribers.
public enum Subscribers {
  /// A signal that a publisher doesn't produce additional elements.
  public enum Completion<Failure: Error> {
    /// Normal completion.
    case finished
    /// Completion with an error.
    case failure(Failure)
  }

  /// A requested number of items, sent to a publisher from a subscriber.
  public struct Demand {}
}

/// A namespace for types that serve as publishers.
public enum Publishers {
  /// A publisher that performs the specified closures when publisher events occur.
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    /// The upstream's values.
    public typealias Output = Upstream.Output
    /// The upstream's errors.
    public typealias Failure = Upstream.Failure
  }
}

/// A publisher that performs type erasure by wrapping another publisher.
@frozen public struct AnyPublisher<Output, Failure: Error>: Publisher {}

/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
  /// The created publisher's values.
  public typealias Output = DeferredPublisher.Output
  /// The created publisher's errors.
  public typealias Failure = DeferredPublisher.Failure

  /// Creates a deferred publisher.
  public init(createPublisher: @escaping () -> DeferredPublisher) {}
}

/// A publisher that emits an output to each subscriber just once, and then finishes.
public struct Just<Output>: Publisher {
  /// Never fails.
  public typealias Failure = Never

  /// Initializes a publisher that emits the specified output just once.
  public init(_ output: Output) {}
}

/// A subject that wraps a single value and publishes a new element whenever the value changes.
final public class CurrentValueSubject<Output, Failure: Error>: Publisher {
  /// The value wrapped by this subject, published as a new element whenever it changes.
  final public var value: Output {
    get { fatalError("stand-in") }
    set {}
  }

  /// Creates a current value subject with the given initial value.
  public init(_ value: Output) {}

  /// Sends a value to the subscriber.
  final public func send(_ input: Output) {}

  /// Sends a completion signal to the subscriber.
  final public func send(completion: Subscribers.Completion<Failure>) {}
}

extension Publisher {
  /// Performs the specified closures when publisher events occur.
  public func handleEvents(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveOutput: ((Self.Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Self.Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    fatalError("stand-in")
  }

  /// Wraps this publisher with a type eraser.
  public func eraseToAnyPublisher() -> AnyPublisher<Self.Output, Self.Failure> {
    fatalError("stand-in")
  }
}

/// A type of object with a publisher that emits before the object has changed.
public protocol ObservableObject: AnyObject {
  /// The type of publisher that emits before the object has changed.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never
  /// A publisher that emits before the object has changed.
  var objectWillChange: ObjectWillChangePublisher { get }
}

/// A publisher that publishes changes from observable objects.
final public class ObservableObjectPublisher: Publisher {
  /// The kind of values published by this publisher.
  public typealias Output = Void
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  /// Creates an observable object publisher instance.
  public init() {}

  /// Sends the changed value to the downstream subscriber.
  final public func send() {}
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// A publisher that emits before the object has changed (`@Published` properties' changes).
  public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}
