// A stand-in of RxCocoa for scripts/check-migration-names (see RxSwift.swift): `Driver` and
// `Signal`, which RxCocoa declares as type aliases of one generic type.
import RxRelay
import RxSwift

/// A stand-in of RxCocoa's `SharedSequence`.
public struct SharedSequence<SharingStrategy, Element> {
  /// A stand-in of `map(_:)`.
  public func map<Result>(_ transform: @escaping (Element) -> Result)
    -> SharedSequence<SharingStrategy, Result>
  {
    SharedSequence<SharingStrategy, Result>()
  }
}

/// A stand-in of RxCocoa's `DriverSharingStrategy`.
public enum DriverSharingStrategy {}
/// A stand-in of RxCocoa's `SignalSharingStrategy`.
public enum SignalSharingStrategy {}

/// A stand-in of RxCocoa's `Driver`.
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>
/// A stand-in of RxCocoa's `Signal`.
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

extension BehaviorRelay {
  /// A stand-in of `asDriver()`.
  public func asDriver() -> Driver<Element> { Driver() }
}

extension PublishRelay {
  /// A stand-in of `asSignal()`.
  public func asSignal() -> Signal<Element> { Signal() }
}
