import InvalidatingInvalidation
import InvalidatingPlatform

// The custom invalidator of API.md, verbatim: it must compile as users will write it.
extension Invalidations {
  struct Focus: ViewInvalidatingType {
    func invalidate(view: PlatformView) {}
  }
}
extension ViewInvalidatingType where Self == Invalidations.Focus {
  static var focus: Self { .init() }
}

extension Invalidations {
  /// A numbered custom invalidation that a ``RecordingView`` records as `"markN"`: equal
  /// marks are the same invalidation, different ones are not.
  struct Mark: ViewInvalidatingType, Equatable {
    let number: Int

    func invalidate(view: PlatformView) {
      (view as? RecordingView)?.record("mark\(number)")
    }
  }

  /// A custom invalidation that is not `Equatable`: all its instances are the same
  /// invalidation, whatever their label.
  struct Tag: ViewInvalidatingType {
    let label: String

    func invalidate(view: PlatformView) {
      (view as? RecordingView)?.record("tag-\(label)")
    }
  }
}

extension ViewInvalidatingType where Self == Invalidations.Mark {
  static func mark(_ number: Int) -> Self { .init(number: number) }
}

extension ViewInvalidatingType where Self == Invalidations.Tag {
  static func tag(_ label: String) -> Self { .init(label: label) }
}
