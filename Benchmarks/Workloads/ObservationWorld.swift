import Observation

// Apple's Observation module as an app uses it, for the workloads: `@Observable` objects hold
// the sources, an effect is a closure run in `withObservationTracking` and run again (tracking
// again) after each change it saw, and a computed value is either a closure read on demand (an
// uncached computed property, the idiomatic spelling) or a cached value on top of Observation.
//
// Observation announces a change before it is stored (`onChange` runs in the property's
// willSet) and has no batches; the run loop that an app's UI framework provides, which runs
// the invalidated effects after the writes, is `ObservationWorld`.

/// A source: one observable stored integer. Not generic: a key path into a generic class is
/// built anew each time it is evaluated (a runtime lookup by mangled name), and `@Observable`
/// evaluates `\.value` on every access.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class ObservedCell {
  var value: Int

  init(_ value: Int) {
    self.value = value
  }
}

/// The run loop of the Observation workloads: it runs effects after the writes, and makes the
/// cached computeds stale in order. Safe as `@unchecked Sendable` (as are the memos and effects
/// it holds): the benchmark builds, writes and reads everything on its one thread, and
/// Observation calls `onChange` on the writing thread.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class ObservationWorld: @unchecked Sendable {
  /// Whether `computed` caches its value.
  let cachesComputeds: Bool
  /// How many times effects have run, their first runs included.
  let effects = EffectCounter()
  private var allEffects: [ObservedEffect] = []
  /// Effects whose tracked values changed, to run once the writes are done.
  private var pendingEffects: [ObservedEffect] = []
  private var runningEffects: [ObservedEffect] = []
  /// Memos made stale whose own observers are not told yet, oldest first (from `staleHead`).
  private var staleMemos: [any StaleMemo] = []
  private var staleHead = 0
  private var batchDepth = 0

  init(cachesComputeds: Bool) {
    self.cachesComputeds = cachesComputeds
  }

  /// A computed value: `body` read on demand, or cached until something it read changes.
  func computed<Value>(_ body: @escaping () -> Value) -> () -> Value {
    guard cachesComputeds else { return body }
    let memo = ObservedMemo(body, world: self)
    return { memo.value }
  }

  /// Runs `body` now, tracking what it reads, and again after each change of that.
  func effect(_ body: @escaping () -> Void) {
    let effect = ObservedEffect(body, world: self)
    allEffects.append(effect)
    run(effect)
  }

  /// Runs `body`, then every effect invalidated by its writes: the app's turn of its run loop.
  func batch(_ body: () -> Void) {
    batchDepth += 1
    body()
    batchDepth -= 1
    if batchDepth == 0 { runPendingEffects() }
  }

  private func run(_ effect: ObservedEffect) {
    effects.runs += 1
    withObservationTracking(effect.body) { [weak effect] in
      guard let effect else { return }
      effect.world.pendingEffects.append(effect)
    }
  }

  private func runPendingEffects() {
    while true {
      tellObserversOfStaleMemos()
      guard !pendingEffects.isEmpty else { return }
      swap(&runningEffects, &pendingEffects)
      for effect in runningEffects { run(effect) }
      runningEffects.removeAll(keepingCapacity: true)
    }
  }

  /// Notes `memo` as stale: its observers are told after the write that made it so (while
  /// Observation runs `onChange` the new value is not stored yet), in the order memos went
  /// stale, so that telling a long chain takes a loop rather than a recursion.
  fileprivate func memoWentStale(_ memo: any StaleMemo) {
    staleMemos.append(memo)
  }

  /// Tells the observers of every memo gone stale since the last call; called before any read
  /// of a memo and before running effects.
  @inline(__always)
  fileprivate func tellObserversOfStaleMemosIfAny() {
    if _slowPath(staleHead < staleMemos.count) { tellObserversOfStaleMemos() }
  }

  private func tellObserversOfStaleMemos() {
    while staleHead < staleMemos.count {
      let memo = staleMemos[staleHead]
      staleHead += 1
      memo.tellObservers()
    }
    staleMemos.removeAll(keepingCapacity: true)
    staleHead = 0
  }
}

/// A memo whose observers must be told it changed.
private protocol StaleMemo: AnyObject {
  func tellObservers()
}

/// A cached computed value on top of Observation: computed on the first read after something
/// it read changed, and observable itself (reading it tracks it). Safe: see `ObservationWorld`.
///
/// What it costs is Observation's: each computation is a `withObservationTracking` (its access
/// list, its registrations, its `onChange` closure), and Observation adds what a nested
/// tracking read to the enclosing one, so a chain of stale memos recomputed from its end
/// registers every memo with everything below it (quadratic in the chain's length).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class ObservedMemo<Value>: Observable, StaleMemo, @unchecked Sendable {
  private let registrar = ObservationRegistrar()
  private let compute: () -> Value
  private unowned let world: ObservationWorld
  private var cached: Value?
  private var isStale = true
  /// `\.value`, built once: the class is generic (see `ObservedCell`).
  private let valueKeyPath: KeyPath<ObservedMemo, Value>

  init(_ compute: @escaping () -> Value, world: ObservationWorld) {
    self.compute = compute
    self.world = world
    valueKeyPath = \.value
  }

  var value: Value {
    world.tellObserversOfStaleMemosIfAny()
    registrar.access(self, keyPath: valueKeyPath)
    if !isStale, let cached { return cached }
    let value = withObservationTracking(compute) { [weak self] in
      guard let self, !self.isStale else { return }
      self.isStale = true
      self.world.memoWentStale(self)
    }
    cached = value
    isStale = false
    return value
  }

  func tellObservers() {
    registrar.withMutation(of: self, keyPath: valueKeyPath) {}
  }
}

/// An effect: a closure that `ObservationWorld` runs again after each change it tracked.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class ObservedEffect: @unchecked Sendable {
  // Safe: see `ObservationWorld`.
  let body: () -> Void
  unowned let world: ObservationWorld

  init(_ body: @escaping () -> Void, world: ObservationWorld) {
    self.body = body
    self.world = world
  }
}
