import InvalidatingCore
import InvalidatingPlatform

/// The invalidations of one `@ViewInvalidating` property, in argument order, stored without an
/// allocation when they are all built-in.
///
/// Each invalidation takes a 3-bit code in ``codes``, the first one in the lowest bits; a zero
/// code ends the list. The built-in invalidations have codes of their own and no payload, so a
/// property that names only them keeps an empty ``customs`` array, which Swift represents
/// without allocating: the whole list is 16 bytes inline in the view. Any other invalidator
/// is coded ``Code/custom`` and its value goes to ``customs``, in order. After
/// ``slotCount`` invalidations the codes are full and every further invalidation, built-in or
/// not, goes to ``customs``, which are run after the coded ones.
@available(iOS, deprecated: 15.0, message: "Use UIView.Invalidating")
@available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidating")
@available(macOS, deprecated: 12.0, message: "Use NSView.Invalidating")
@usableFromInline
package struct ViewInvalidationList {
  /// What each 3-bit slot of ``codes`` holds.
  @usableFromInline
  enum Code: UInt64 {
    case end = 0
    case layout
    case display
    case constraints
    case intrinsicContentSize
    case configuration
    case restorableState
    case custom
  }

  /// How many invalidations the codes hold: 21 slots of 3 bits in 64.
  @usableFromInline static let slotCount = 21

  /// The codes, first invalidation in the lowest three bits.
  @usableFromInline let codes: UInt64
  /// The invalidators that have no code of their own, in order.
  @usableFromInline let customs: [any ViewInvalidatingType]

  @inlinable
  package init<each Invalidation: ViewInvalidatingType>(
    _ invalidations: repeat each Invalidation
  ) {
    var codes: UInt64 = 0
    var customs: [any ViewInvalidatingType] = []
    var slot = 0
    for invalidation in repeat each invalidations {
      var code = Code.custom
      if slot < Self.slotCount {
        code = Self.code(for: type(of: invalidation))
        codes |= code.rawValue << UInt64(3 * slot)
        slot += 1
      }
      if code == .custom { customs.append(invalidation) }
    }
    self.codes = codes
    self.customs = customs
  }

  /// The code of a built-in invalidation type, or ``Code/custom``.
  @inlinable
  static func code<Invalidation: ViewInvalidatingType>(for type: Invalidation.Type) -> Code {
    let id = ObjectIdentifier(type)
    if id == ObjectIdentifier(Invalidations.Layout.self) { return .layout }
    if id == ObjectIdentifier(Invalidations.Display.self) { return .display }
    if id == ObjectIdentifier(Invalidations.Constraints.self) { return .constraints }
    if id == ObjectIdentifier(Invalidations.IntrinsicContentSize.self) {
      return .intrinsicContentSize
    }
    #if canImport(UIKit)
      if id == ObjectIdentifier(Invalidations.Configuration.self) { return .configuration }
    #elseif canImport(AppKit)
      if id == ObjectIdentifier(Invalidations.RestorableState.self) { return .restorableState }
    #endif
    return .custom
  }

  /// What traces call each invalidation, in order: `layout`, `display`, a custom one's type.
  package var kindNames: [String] {
    var names: [String] = []
    var remaining = codes
    var nextCustom = 0
    while remaining != 0 {
      switch Code(rawValue: remaining & 0b111)! {
      case .layout: names.append("layout")
      case .display: names.append("display")
      case .constraints: names.append("constraints")
      case .intrinsicContentSize: names.append("intrinsicContentSize")
      case .configuration: names.append("configuration")
      case .restorableState: names.append("restorableState")
      case .custom:
        names.append(Tracing.kindName(of: type(of: customs[nextCustom])))
        nextCustom += 1
      case .end: break
      }
      remaining >>= 3
    }
    for custom in customs[nextCustom...] { names.append(Tracing.kindName(of: type(of: custom))) }
    return names
  }

  /// Requests every invalidation from `view`, in order, through the engine: at once outside
  /// batches and deliveries, once each at their end inside them.
  @MainActor @inlinable
  package func invalidate(_ view: PlatformView, _ context: ThreadContext) {
    var remaining = codes
    var nextCustom = 0
    while remaining != 0 {
      // Every 3-bit value is a code.
      switch Code(rawValue: remaining & 0b111)! {
      case .layout: Self.request(Invalidations.Layout(), from: view, context)
      case .display: Self.request(Invalidations.Display(), from: view, context)
      case .constraints: Self.request(Invalidations.Constraints(), from: view, context)
      case .intrinsicContentSize:
        Self.request(Invalidations.IntrinsicContentSize(), from: view, context)
      case .configuration:
        #if canImport(UIKit)
          Self.request(Invalidations.Configuration(), from: view, context)
        #else
          break  // never: only UIKit codes it
        #endif
      case .restorableState:
        // The condition RestorableState is declared under: on Mac Catalyst both frameworks
        // can be imported, and the UIKit branch is the one compiled.
        #if canImport(AppKit) && !canImport(UIKit)
          Self.request(Invalidations.RestorableState(), from: view, context)
        #else
          break  // never: only AppKit codes it
        #endif
      case .custom:
        Self.requestCustom(customs[nextCustom], from: view, context)
        nextCustom += 1
      case .end: break  // never: the codes are contiguous
      }
      remaining >>= 3
    }
    while nextCustom < customs.count {
      Self.requestCustom(customs[nextCustom], from: view, context)
      nextCustom += 1
    }
  }

  /// Requests a custom invalidation under its own type (the existential is opened here), so
  /// that the engine tells it apart from the others.
  @MainActor @inlinable
  static func requestCustom(
    _ invalidation: any ViewInvalidatingType, from view: PlatformView, _ context: ThreadContext
  ) {
    request(invalidation, from: view, context)
  }

  /// Asks the engine to run `invalidation` on `view`, deduplicated by its type (and value, when
  /// it is `Equatable`) inside batches.
  @MainActor @inlinable
  static func request<Invalidation: ViewInvalidatingType>(
    _ invalidation: Invalidation, from view: PlatformView, _ context: ThreadContext
  ) {
    view.invalidate(by: invalidation, in: context) { view, invalidation in
      invalidation.invalidate(view: view)
    }
  }
}
