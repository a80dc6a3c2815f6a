// The invalidation scope: invalidations requested inside a batch or a delivery are deferred
// to the end of the outermost one and run once per distinct invalidator, in request order.

extension ThreadContext {
  /// Queues an invalidation for the end of the outermost scope, unless the same one is queued;
  /// `makePerform` is called only in the first case.
  @usableFromInline
  func deferInvalidation<Invalidator>(
    of target: AnyObject, by invalidator: Invalidator,
    _ makePerform: () -> (() -> Void)
  ) {
    scope.invalidations.add(target, InvalidationKey(invalidator), makePerform)
  }

  /// An invalidation requested while a tracer records: recorded (as deduplicated when the
  /// same one is queued already), and performed, at once or at the end of the scope, with the
  /// record (and those of its repeats) as the cause of what it does.
  @usableFromInline
  func invalidateTraced<Invalidator>(
    _ target: AnyObject, by invalidator: Invalidator, _ perform: @escaping () -> Void
  ) {
    let kind = Tracing.kindName(of: Invalidator.self)
    guard scope.depth > 0 else {
      let cause = Tracing.invalidation(of: target, kind: kind, deduplicated: false, self)
      Tracing.with(cause, self) { perform() }
      return
    }
    let isNew = scope.invalidations.add(target, InvalidationKey(invalidator)) { perform }
    let cause = Tracing.invalidation(of: target, kind: kind, deduplicated: !isNew, self)
    // A repeat is a cause of what the one queued does too (a pass it asks for, say).
    scope.invalidations.addCauseToLastRequested(cause)
  }
}

/// What makes two invalidation requests the same: the invalidator's type, and its value when
/// the type is `Equatable`.
struct InvalidationKey {
  let type: ObjectIdentifier
  let value: (any Equatable)?

  init<Invalidator>(_ invalidator: Invalidator) {
    type = ObjectIdentifier(Invalidator.self)
    // A type with no stored data (the built-in invalidators) has one value, so the type says
    // everything, and the costly dynamic cast is skipped.
    value = MemoryLayout<Invalidator>.size == 0 ? nil : invalidator as? any Equatable
  }

  func matches(_ other: InvalidationKey) -> Bool {
    guard type == other.type else { return false }
    guard let value, let otherValue = other.value else { return true }
    func equals<T: Equatable>(_ lhs: T) -> Bool { (otherValue as? T) == lhs }
    return equals(value)
  }
}

/// Invalidations deferred to the end of the outermost scope, in first-request order.
struct PendingInvalidations {
  /// One deferred invalidation. The target is held weakly, so that an object released inside
  /// a batch is freed then, not at the batch's end.
  private struct Entry {
    weak var target: AnyObject?
    let key: InvalidationKey
    let perform: () -> Void
    /// The invalidation's record while a tracer records: the cause of what `perform` does.
    var cause: Cause?
  }

  private var entries: [Entry] = []
  /// Each entry's target and invalidator type, as words beside `entries`: a search compares
  /// these and reads an entry (a weak reference to load, an existential to compare) only
  /// when both match.
  private var identities: [(target: ObjectIdentifier, type: ObjectIdentifier)] = []
  /// Indices of entries by target, for large batches touching many objects.
  private var byTarget: [ObjectIdentifier: [Int]] = [:]
  /// The entry most recently requested: a batch that sets one property many times asks for
  /// the same invalidation over and over, and finds it here first.
  private var lastRequested = -1

  var isEmpty: Bool { entries.isEmpty }

  /// Queues the invalidation of `target` by `key`, performed by what `makePerform` returns,
  /// unless the same invalidation is queued already; returns whether it queued it.
  @discardableResult
  mutating func add(
    _ target: AnyObject, _ key: InvalidationKey, _ makePerform: () -> (() -> Void)
  ) -> Bool {
    let id = ObjectIdentifier(target)
    if lastRequested >= 0, entry(lastRequested, is: id, target, key) { return false }
    if let index = index(of: id, target, key) {
      lastRequested = index
      return false
    }
    if entries.count >= 16 { byTarget[id, default: []].append(entries.count) }
    lastRequested = entries.count
    identities.append((id, key.type))
    entries.append(Entry(target: target, key: key, perform: makePerform()))
    return true
  }

  /// Adds a record to the causes of the invalidation last requested (queued or found queued),
  /// for what it does when it runs (see `ThreadContext.invalidateTraced`).
  mutating func addCauseToLastRequested(_ cause: Cause) {
    if let earlier = entries[lastRequested].cause {
      entries[lastRequested].cause = Cause(.group, parents: [earlier, cause])
    } else {
      entries[lastRequested].cause = cause
    }
  }

  /// Whether entry `index` is the invalidation of `target` (whose identifier is `id`) by `key`.
  /// A freed target's identifier may be reused by a new object; comparing the weak reference
  /// tells them apart.
  private func entry(
    _ index: Int, is id: ObjectIdentifier, _ target: AnyObject, _ key: InvalidationKey
  ) -> Bool {
    guard identities[index] == (id, key.type) else { return false }
    if key.value != nil, !key.matches(entries[index].key) { return false }
    return entries[index].target === target
  }

  /// The index of the queued invalidation of `target` by `key`, if any.
  private mutating func index(
    of id: ObjectIdentifier, _ target: AnyObject, _ key: InvalidationKey
  ) -> Int? {
    if entries.count < 16 {
      return identities.indices.first { entry($0, is: id, target, key) }
    }
    if byTarget.isEmpty {
      for (index, identity) in identities.enumerated() {
        byTarget[identity.target, default: []].append(index)
      }
    }
    return byTarget[id]?.first { entry($0, is: id, target, key) }
  }

  /// Removes and returns the invalidations whose target is still alive, in request order, with
  /// their records when traced.
  mutating func take() -> [(perform: () -> Void, cause: Cause?)] {
    defer {
      entries = []
      identities = []
      byTarget = [:]
      lastRequested = -1
    }
    return entries.compactMap { $0.target == nil ? nil : ($0.perform, $0.cause) }
  }
}

extension ThreadContext {
  /// Runs the deferred invalidations in request order. Invalidations they request in turn run
  /// at once (no scope is open).
  func flushInvalidations() {
    for (perform, cause) in scope.invalidations.take() {
      if let cause {
        Tracing.with(cause, self) { perform() }
      } else {
        perform()
      }
    }
  }
}
