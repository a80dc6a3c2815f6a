import InvalidatingCore

/// The passes whose reads a view tracks (see "Automatic invalidation" in ``HeadlessView``).
public enum TrackedPass: Sendable, Hashable, CaseIterable {
  /// `updateProperties()`; a change requests `setNeedsUpdateProperties()`.
  case updateProperties
  /// `layoutSubviews()`; a change requests `setNeedsLayout()`.
  case layout
  /// The display pass (`render()` here, `draw(_:)` on Apple platforms); a change requests
  /// `setNeedsDisplay()`.
  case display
}

/// What each tracked pass of one view read, and the watches that invalidate the view when any
/// of it changes.
@MainActor
final class TrackedPasses {
  private var watchers: [ReadWatcher?] = [nil, nil, nil]

  /// The watcher of `pass`, made on first use; its changes request the pass on `view`.
  func watcher(for pass: TrackedPass, of view: HeadlessView) -> ReadWatcher {
    let index = pass.index
    if let watcher = watchers[index] { return watcher }
    let request = MainActorRequest(view) { view in view.requestPass(pass) }
    let made = ReadWatcher(onChange: request.send)
    watchers[index] = made
    return made
  }

  /// What the last run of `pass` read.
  func watched(_ pass: TrackedPass) -> ContiguousArray<AnyNode> {
    watchers[pass.index]?.watched ?? []
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
}

extension HeadlessView {
  /// Runs `body`, one of the view's passes, recording what it reads as that pass's
  /// dependencies.
  func runTracked<Result>(_ pass: TrackedPass, _ body: () -> Result) -> Result {
    let passes = trackedPasses ?? TrackedPasses()
    trackedPasses = passes
    return passes.watcher(for: pass, of: self).track(owner: self, body)
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
  public func trackedDependencyCount(of pass: TrackedPass) -> Int {
    trackedPasses?.watched(pass).count ?? 0
  }
}

/// Runs a main-actor request on an object, from whatever thread the engine delivers a change
/// on: at once on the main actor (inside the delivery, so a batch's requests run together),
/// otherwise in one main-actor task however many changes arrive before it runs.
package final class MainActorRequest<Target: AnyObject & Sendable>: @unchecked Sendable {
  // Safe: `isScheduled` is only touched while `lock` is held; the rest is immutable.
  private let lock = Lock()
  private var isScheduled = false
  private weak var target: Target?
  private let perform: @MainActor (Target) -> Void

  /// Creates a request that runs `perform` on `target`, which it holds weakly.
  package init(_ target: Target, perform: @escaping @MainActor (Target) -> Void) {
    self.target = target
    self.perform = perform
  }

  /// Runs the request on the main actor: now if this is it, else soon.
  package func send() {
    if _MainThread.isCurrent {
      MainActor.assumeIsolated { runOnMainActor() }
      return
    }
    lock.lock()
    let mustSchedule = !isScheduled
    isScheduled = true
    lock.unlock()
    if mustSchedule { Task { @MainActor in self.runOnMainActor() } }
  }

  @MainActor
  private func runOnMainActor() {
    lock.lock()
    isScheduled = false
    lock.unlock()
    if let target { perform(target) }
  }
}
