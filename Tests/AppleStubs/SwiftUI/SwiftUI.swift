// A stand-in for Apple's SwiftUI, reduced to its top-level names that a file importing both
// SwiftUI and Invalidating could clash with (property wrappers, the view protocol, a few
// value types), and what the doc snippets of SwiftUI views use (`VStack`, `Button`, `Text`);
// the name-collision probe (Probes/NameCollisionProbe.swift) and those snippets import it.
// Signatures as in the SDK where declared; type-checking only, bodies do nothing.
import Combine
import CoreGraphics

/// An interface for a stored variable that updates an external property of a view.
public protocol DynamicProperty {}

/// A type that represents part of your app's user interface.
@MainActor @preconcurrency
public protocol View {
  /// The type of view representing the body of this view.
  associatedtype Body: View
  /// The content and behavior of the view.
  @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
  /// A primitive view has no body.
  public typealias Body = Never
  /// A primitive view has no body.
  public var body: Never { fatalError() }
}

/// A property wrapper type that can read and write a value owned by a source of truth.
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
  /// Creates a binding with closures that read and write the binding value.
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { read = get }

  private let read: () -> Value

  /// The underlying value referenced by the binding variable.
  public var wrappedValue: Value {
    get { read() }
    nonmutating set {}
  }

  /// A projection of the binding value that returns a binding.
  public var projectedValue: Binding<Value> { self }

  /// Returns a binding to the resulting value of a given key path.
  public subscript<Subject>(
    dynamicMember keyPath: WritableKeyPath<Value, Subject>
  ) -> Binding<Subject> {
    Binding<Subject>(get: { read()[keyPath: keyPath] }, set: { _ in })
  }
}

/// A property wrapper type that can read and write a value managed by SwiftUI.
@propertyWrapper
public struct State<Value>: DynamicProperty {
  /// Creates a state property that stores an initial value.
  public init(wrappedValue value: Value) { initial = value }

  private let initial: Value

  /// The underlying value referenced by the state variable.
  public var wrappedValue: Value {
    get { initial }
    nonmutating set {}
  }

  /// A binding to the state value.
  public var projectedValue: Binding<Value> {
    Binding(get: { initial }, set: { _ in })
  }
}

/// A collection of environment values propagated through a view hierarchy.
public struct EnvironmentValues {
  /// Creates an environment values instance.
  public init() {}
}

/// A property wrapper that reads a value from a view's environment.
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
  /// Creates an environment property to read the specified key path.
  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }

  private let keyPath: KeyPath<EnvironmentValues, Value>

  /// The current value of the environment property.
  public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

/// A property wrapper type that instantiates an observable object.
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
  /// Creates a new state object with an initial wrapped value.
  public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { make = thunk }

  private let make: () -> ObjectType

  /// The underlying value referenced by the state object.
  public var wrappedValue: ObjectType { make() }
}

/// A property wrapper type that subscribes to an observable object.
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
  /// Creates an observed object with an initial wrapped value.
  public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }

  /// The underlying value that the observed object references.
  public var wrappedValue: ObjectType
}

/// A property wrapper type for an observable object that a parent or ancestor view supplies.
@propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
  /// Creates an environment object.
  public init() {}

  /// The underlying value referenced by the environment object.
  public var wrappedValue: ObjectType { fatalError() }
}

/// A property wrapper type that supports creating bindings to the mutable properties of
/// observable objects.
@propertyWrapper @dynamicMemberLookup
public struct Bindable<Value: AnyObject> {
  /// Creates a bindable object from an observable object.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

  /// The wrapped object.
  public var wrappedValue: Value

  /// Returns a binding to the value of a given key path.
  public subscript<Subject>(
    dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>
  ) -> Binding<Subject> {
    Binding(get: { wrappedValue[keyPath: keyPath] }, set: { _ in })
  }
}

/// A view that displays one or more lines of read-only text.
public struct Text: View {
  /// Creates a text view that displays a string literal without localization.
  public init(verbatim content: String) {}

  /// A primitive view has no body.
  public var body: Never { fatalError() }
}

/// The context of the current state-processing update.
public struct Transaction {
  /// Creates a transaction.
  public init() {}
}

/// The way a view changes over time to create a smooth visual transition from one state to
/// another.
public struct Animation: Equatable, Sendable {
  /// A default animation instance.
  public static let `default` = Animation()
}

/// A type that defines the geometry of a collection of views.
public protocol Layout {}

/// A proposal for the size of a view.
public struct ProposedViewSize: Equatable {
  /// The proposed horizontal size, or `nil` for unspecified.
  public var width: CGFloat?
  /// The proposed vertical size, or `nil` for unspecified.
  public var height: CGFloat?
}

/// A view's size and alignment guides in its own coordinate space.
public struct ViewDimensions {
  /// The view's width.
  public var width: CGFloat { 0 }
  /// The view's height.
  public var height: CGFloat { 0 }
}

extension Text {
  /// Creates a text view that displays a stored string without localization.
  nonisolated public init<S: StringProtocol>(_ content: S) {}
}

/// A custom parameter attribute that constructs views from closures.
@resultBuilder
public struct ViewBuilder {
  /// Passes a single view written as a child view through unmodified.
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  /// Combines several views written as children into one.
  public static func buildBlock<each Content: View>(
    _ content: repeat each Content
  ) -> TupleView<(repeat each Content)> {
    TupleView((repeat each content))
  }
}

/// A view created from a swift tuple of view values.
public struct TupleView<T>: View {
  /// Creates a tuple view.
  nonisolated public init(_ value: T) {}
  /// A primitive view has no body.
  public var body: Never { fatalError() }
}

/// A view that arranges its subviews in a vertical line.
public struct VStack<Content: View>: View {
  /// Creates an instance with the given content.
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  /// A primitive view has no body.
  public var body: Never { fatalError() }
}

/// A control that initiates an action.
@MainActor @preconcurrency
public struct Button<Label: View>: View {
  /// A primitive view has no body.
  public var body: Never { fatalError() }
}

extension Button where Label == Text {
  /// Creates a button that generates its label from a string.
  nonisolated public init<S: StringProtocol>(
    _ title: S, action: @escaping @MainActor () -> Void
  ) {}
}
