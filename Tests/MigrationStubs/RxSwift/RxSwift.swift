// A stand-in of RxSwift for scripts/check-migration-names: only the declarations whose names
// meet Invalidating's in a file that imports both, with RxSwift's spellings. Nothing runs.

/// A stand-in of RxSwift's `ObservableType`.
public protocol ObservableType {
  associatedtype Element
  /// A stand-in of `asObservable()`.
  func asObservable() -> Observable<Element>
}

/// A stand-in of RxSwift's `Observable`.
public class Observable<Element>: ObservableType {
  /// A stand-in of an observable that emits nothing.
  public init() {}
  /// Itself.
  public func asObservable() -> Observable<Element> { self }
  /// A stand-in of `map(_:)`.
  public func map<Result>(_ transform: @escaping (Element) -> Result) -> Observable<Result> {
    Observable<Result>()
  }
  /// A stand-in of `subscribe(onNext:)`.
  public func subscribe(onNext: ((Element) -> Void)? = nil) -> any Disposable {
    NoDisposable()
  }
}

/// A stand-in of RxSwift's `Disposable`.
public protocol Disposable {
  func dispose()
}

extension Disposable {
  /// A stand-in of `disposed(by:)`.
  public func disposed(by bag: DisposeBag) {}
}

/// A stand-in of RxSwift's `DisposeBag`.
public final class DisposeBag {
  /// An empty bag.
  public init() {}
}

private struct NoDisposable: Disposable {
  func dispose() {}
}
