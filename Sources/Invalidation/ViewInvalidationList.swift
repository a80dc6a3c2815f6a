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
///
/// The top 16 bits of ``codes`` hold the serial of the property's declaration
/// (``origin``), for traces: what a set, whose setter takes no arguments, gives as its place,
/// at no cost to the list's size or to an untraced set.
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

  /// How many invalidations the codes hold: 16 slots of 3 bits, below the declaration's
  /// serial.
  @usableFromInline static let slotCount = 16
  /// The bits of ``codes`` that hold invalidation codes.
  @usableFromInline static let slotBits: UInt64 = (1 << 48) - 1

  /// The codes, first invalidation in the lowest three bits, and the declaration's serial in
  /// the top 16.
  @usableFromInline let codes: UInt64
  /// The invalidators that have no code of their own, in order.
  @usableFromInline let customs: [any ViewInvalidatingType]

  /// Where the property whose invalidations these are is declared, shared by every instance of
  /// the class (see `NodeOrigin`); `nil` for a list that no property owns
  /// (`invalidate(_:whenever:)`), or past the 65,535th declaration origin of the process.
  var origin: NodeOrigin? { NodeOrigin.numbered(Int(codes >> 48)) }

  @inlinable
  package init<each Invalidation: ViewInvalidatingType>(
    _ invalidations: repeat each Invalidation, declaredAt origin: NodeOrigin? = nil
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
    if let serial = origin?.serial, serial <= 0xFFFF { codes |= UInt64(serial) << 48 }
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

  /// Requests every invalidation from `view`, in order, through the engine: at once outside
  /// batches and deliveries, once each at their end inside them.
  ///
  /// While a tracer records, the requests are traced; when they come from a set of the
  /// property declared at `origin`, the set is their cause. (Out of line: the setter that
  /// calls it pays nothing more for tracing.)
  @MainActor @usableFromInline
  package func invalidate(_ view: PlatformView, _ context: ThreadContext) {
    if _slowPath(Tracing.isOn) { return invalidateTraced(view, context) }
    invalidate(view, context, traced: false)
  }

  /// `invalidate(_:_:)` while a tracer records.
  @MainActor @inline(never)
  func invalidateTraced(_ view: PlatformView, _ context: ThreadContext) {
    guard let origin else { return invalidate(view, context, traced: true) }
    let cause = Tracing.set(of: view, declaredAt: origin, context)
    Tracing.with(cause, context) { invalidate(view, context, traced: true) }
  }

  /// The requests of `invalidate(_:_:)`, traced or not: a copy of each in the two callers.
  @MainActor @inline(__always)
  func invalidate(_ view: PlatformView, _ context: ThreadContext, traced: Bool) {
    var remaining = codes & Self.slotBits
    var nextCustom = 0
    while remaining != 0 {
      // Every 3-bit value is a code.
      switch Code(rawValue: remaining & 0b111)! {
      case .layout: Self.request(Invalidations.Layout(), from: view, context, traced)
      case .display: Self.request(Invalidations.Display(), from: view, context, traced)
      case .constraints: Self.request(Invalidations.Constraints(), from: view, context, traced)
      case .intrinsicContentSize:
        Self.request(Invalidations.IntrinsicContentSize(), from: view, context, traced)
      case .configuration:
        #if canImport(UIKit)
          Self.request(Invalidations.Configuration(), from: view, context, traced)
        #else
          break  // never: only UIKit codes it
        #endif
      case .restorableState:
        // The condition RestorableState is declared under: on Mac Catalyst both frameworks
        // can be imported, and the UIKit branch is the one compiled.
        #if canImport(AppKit) && !canImport(UIKit)
          Self.request(Invalidations.RestorableState(), from: view, context, traced)
        #else
          break  // never: only AppKit codes it
        #endif
      case .custom:
        Self.requestCustom(customs[nextCustom], from: view, context, traced)
        nextCustom += 1
      case .end: break  // never: the codes are contiguous
      }
      remaining >>= 3
    }
    while nextCustom < customs.count {
      Self.requestCustom(customs[nextCustom], from: view, context, traced)
      nextCustom += 1
    }
  }

  /// Requests a custom invalidation under its own type (the existential is opened here), so
  /// that the engine tells it apart from the others.
  @MainActor @inlinable
  static func requestCustom(
    _ invalidation: any ViewInvalidatingType, from view: PlatformView, _ context: ThreadContext,
    _ traced: Bool
  ) {
    request(invalidation, from: view, context, traced)
  }

  /// Asks the engine to run `invalidation` on `view`, deduplicated by its type (and value, when
  /// it is `Equatable`) inside batches.
  @MainActor @inlinable
  static func request<Invalidation: ViewInvalidatingType>(
    _ invalidation: Invalidation, from view: PlatformView, _ context: ThreadContext,
    _ traced: Bool
  ) {
    view.invalidate(by: invalidation, in: context, traced: traced) { view, invalidation in
      invalidation.invalidate(view: view)
    }
  }
}
