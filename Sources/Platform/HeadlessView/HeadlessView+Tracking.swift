import InvalidatingCore

#if canImport(UIKit)
  import UIKit
#elseif canImport(AppKit)
  import AppKit
#endif

/// A view pass whose reads an ``InvalidationTracker`` follows.
public enum TrackedPass: Sendable, Hashable, CaseIterable {
  /// The properties pass (`updateProperties()`); a change requests
  /// `setNeedsUpdateProperties()`. Where the platform has no such pass (UIKit before iOS 26,
  /// AppKit), it requests layout: run the pass from `layoutSubviews()`/`layout()` there.
  case updateProperties
  /// The layout pass (`layoutSubviews()`, AppKit's `layout()`); a change requests layout.
  case layout
  /// The display pass (`draw(_:)`; ``HeadlessView/render()`` headless); a change requests
  /// display.
  case display
}

/// Follows what a view's passes read, and requests a pass again when something it read
/// changes: automatic invalidation, for every `Property`, on every platform.
///
/// ``HeadlessView`` runs one for its own passes. A `UIView` or `NSView` subclass gets the same
/// by running its passes through one; this is how UIKit's automatic observation tracking
/// (iOS 26, for `@Observable` only) is had on iOS 13 and macOS 10.15 and later, for
/// properties, relays and computed properties alike:
///
/// ```swift
/// final class BadgeView: UIView {
///   let title: Property<String>
///   private(set) var shownTitle = ""
///   private let tracker = InvalidationTracker()
///
///   init(title: Property<String>) {
///     self.title = title
///     super.init(frame: .zero)
///   }
///
///   required init?(coder: NSCoder) { nil }
///
///   override func layoutSubviews() {
///     super.layoutSubviews()
///     tracker.track(.layout, of: self) {
///       shownTitle = title.value  // a change of title requests layout
///     }
///   }
/// }
/// ```
///
/// Each run records afresh: a property read only in a branch no longer taken stops counting.
/// Each run is an invalidation scope: the `@ViewInvalidating` properties it sets request
/// their invalidations once, when it ends.
/// However many of the recorded properties one batch changes, the view gets one request, on
/// the main actor (at once when the change was written there, else in a main-actor task).
/// Reads inside `untracked { }` are not recorded, nor are reads of the view's own
/// `@ViewInvalidating` properties (they invalidate it already). Where the `Observation`
/// module exists, reads of `@Observable` objects are followed too.
///
/// The tracker holds the view weakly; releasing the tracker (with its view) ends every watch.
@MainActor
public final class InvalidationTracker {
  private var watchers: [ReadWatcher?] = [nil, nil, nil]
  /// While a tracer records: the causes of the requests of each pass since it last ran, for
  /// the pass's record; the newest `requestLimit` of them, should the pass not run for long.
  private var requests: [[Cause]] = [[], [], []]
  private static let requestLimit = 16

  /// Creates a tracker that follows nothing yet.
  public init() {}

  /// Runs `body`, the `pass` of `view`, recording what it reads; from now on, a change of any
  /// of it requests `pass` on `view`.
  ///
  /// - Parameters:
  ///   - pass: The pass `body` is.
  ///   - view: The view to request the pass on.
  ///   - body: The pass's work.
  /// - Returns: What `body` returns.
  public func track<Result>(
    _ pass: TrackedPass, of view: PlatformView, _ body: () -> Result
  ) -> Result {
    track(
      pass, of: view, named: pass.platformName,
      request: { view, pass in
        // UIKit's and AppKit's requests are not this package's to trace: note this one here.
        if Tracing.isOn { self.noteRequest(of: pass, on: view, call: pass.requestName) }
        pass.request(on: view)
      }, body)
  }

  /// `track(_:of:_:)` for any main-actor object, with the name traces give the pass
  /// (`layoutSubviews()`) and the request to make of it.
  ///
  /// While a tracer records, the pass is recorded with the requests made since it last ran,
  /// and a change of what it read is recorded as an invalidation of the pass's kind.
  func track<Target: AnyObject & Sendable, Result>(
    _ pass: TrackedPass, of target: Target, named name: String,
    request: @escaping @MainActor (Target, TrackedPass) -> Void, _ body: () -> Result
  ) -> Result {
    let watcher: ReadWatcher
    if let existing = watchers[pass.index] {
      watcher = existing
    } else {
      // A signal: one request however many changes arrive before it runs.
      let request = Hop<Void>.toMainActor(.latest) { [weak target] _ in
        guard let target else { return }
        guard Tracing.isOn else { return request(target, pass) }
        let context = ThreadContext.current
        let cause = Tracing.invalidation(
          of: target, kind: pass.kindName, deduplicated: false, context)
        Tracing.with(cause, context) { request(target, pass) }
      }
      watcher = ReadWatcher(name: "\(type(of: target)).\(name)") { request.send(()) }
      watchers[pass.index] = watcher
    }
    // Requests noted while a tracer recorded are this run's, traced or not.
    var requests: [Cause] = []
    if _slowPath(!self.requests[pass.index].isEmpty) {
      swap(&requests, &self.requests[pass.index])
    }
    // One invalidation scope per pass: properties the pass sets request their invalidations
    // once, at its end, however many of them it sets.
    let context = ThreadContext.current
    context.beginScope()
    defer { context.endScope() }
    guard _slowPath(Tracing.isOn) else { return watcher.track(owner: target, body) }
    let cause = Tracing.pass(of: target, name: name, requests: requests)
    return Tracing.with(cause, context) { watcher.track(owner: target, body) }
  }

  /// Notes, while a tracer records, that `pass` of `target` was requested (by `call`, when
  /// nothing traced made the request), for the pass's record.
  func noteRequest(of pass: TrackedPass, on target: AnyObject, call: String) {
    if requests[pass.index].count >= Self.requestLimit { requests[pass.index].removeFirst() }
    requests[pass.index].append(Tracing.passRequest(of: target, call: call, .current))
  }

  /// How many properties the last run of `pass` read and follows.
  ///
  /// - Parameter pass: A tracked pass.
  /// - Returns: The number of distinct properties, relays and computed properties.
  public func dependencyCount(of pass: TrackedPass) -> Int {
    watchers[pass.index]?.watched.count ?? 0
  }

}

extension TrackedPass {
  var index: Int {
    switch self {
    case .updateProperties: 0
    case .layout: 1
    case .display: 2
    }
  }

  /// What traces call an invalidation that asks for this pass: the name of the invalidator
  /// that asks for it (`layout`, `display`).
  var kindName: String {
    switch self {
    case .updateProperties: "updateProperties"
    case .layout: "layout"
    case .display: "display"
    }
  }

  /// The request a pass answers, as its caller wrote it.
  var requestName: String {
    switch self {
    case .updateProperties: "setNeedsUpdateProperties()"
    case .layout: "setNeedsLayout()"
    case .display: "setNeedsDisplay()"
    }
  }

  /// What traces call the pass on `HeadlessView`.
  var headlessName: String {
    switch self {
    case .updateProperties: "updateProperties()"
    case .layout: "layoutSubviews()"
    case .display: "render()"
    }
  }

  /// What traces call the pass on this platform's views.
  var platformName: String {
    #if canImport(UIKit)
      switch self {
      case .updateProperties: "updateProperties()"
      case .layout: "layoutSubviews()"
      case .display: "draw(_:)"
      }
    #elseif canImport(AppKit)
      switch self {
      case .updateProperties: "updateProperties()"
      case .layout: "layout()"
      case .display: "draw(_:)"
      }
    #else
      headlessName
    #endif
  }

  /// Requests this pass on `view`.
  @MainActor
  func request(on view: PlatformView) {
    #if canImport(UIKit)
      switch self {
      case .updateProperties:
        if #available(iOS 26.0, tvOS 26.0, *) {
          view.setNeedsUpdateProperties()
        } else {
          view.setNeedsLayout()
        }
      case .layout: view.setNeedsLayout()
      case .display: view.setNeedsDisplay()
      }
    #elseif canImport(AppKit)
      switch self {
      case .updateProperties, .layout: view.needsLayout = true
      case .display: view.needsDisplay = true
      }
    #else
      view.requestPass(self)
    #endif
  }
}

extension HeadlessView {
  /// The view's tracker, made on first use.
  var tracker: InvalidationTracker {
    if let invalidationTracker { return invalidationTracker }
    let made = InvalidationTracker()
    invalidationTracker = made
    return made
  }

  /// Runs `body`, one of the view's own passes, through its tracker.
  func runTracked<Result>(_ pass: TrackedPass, _ body: () -> Result) -> Result {
    tracker.track(
      pass, of: self, named: pass.headlessName, request: { $0.requestPass($1) }, body)
  }

  /// Requests `pass` again: what it read changed.
  func requestPass(_ pass: TrackedPass) {
    switch pass {
    case .updateProperties: setNeedsUpdateProperties()
    case .layout: setNeedsLayout()
    case .display: setNeedsDisplay()
    }
  }

  /// How many properties the last run of `pass` read and follows: for tests and tracing.
  ///
  /// - Parameter pass: One of the view's tracked passes.
  /// - Returns: The number of distinct properties, relays and computed properties.
  public func trackedDependencyCount(of pass: TrackedPass) -> Int {
    invalidationTracker?.dependencyCount(of: pass) ?? 0
  }
}
