// A stand-in of RxRelay for scripts/check-migration-names (see RxSwift.swift): its two relays,
// with RxRelay's initializers, which name-clash with Invalidating's.
import RxSwift

/// A stand-in of RxRelay's `BehaviorRelay`.
public final class BehaviorRelay<Element>: ObservableType {
  /// The current value.
  public var value: Element
  /// A stand-in of `init(value:)`, RxRelay's only initializer.
  public init(value: Element) { self.value = value }
  /// A stand-in of `accept(_:)`.
  public func accept(_ event: Element) { value = event }
  /// A stand-in of `asObservable()`.
  public func asObservable() -> Observable<Element> { Observable() }
}

/// A stand-in of RxRelay's `PublishRelay`.
public final class PublishRelay<Element>: ObservableType {
  /// A stand-in of `init()`.
  public init() {}
  /// A stand-in of `accept(_:)`.
  public func accept(_ event: Element) {}
  /// A stand-in of `asObservable()`.
  public func asObservable() -> Observable<Element> { Observable() }
}
