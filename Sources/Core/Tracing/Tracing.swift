#if !canImport(Darwin)
  import Synchronization
#endif

#if canImport(Darwin)
  /// How many tracers are recording. Written under `TraceState.lock`; read without it by the
  /// write path's one test (`Tracing.isOn`).
  // Safe in practice, not in the model: Synchronization's `Atomic` needs macOS 15 and iOS 18,
  // newer than the package's minimums. A word-sized, aligned load is atomic on every Apple
  // CPU, and a reader that sees a stale count only starts or stops tracing a write late; the
  // count's writes are ordered by the lock. (Linux, where ThreadSanitizer runs, uses `Atomic`.)
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var recordingTracers = 0
#else
  /// How many tracers are recording: the write path's one test (`Tracing.isOn`).
  @usableFromInline let recordingTracers = Atomic<Int>(0)
#endif

/// The engine's side of tracing: what writes, deliveries, invalidations and passes call while
/// a ``Tracer`` records, and the one test they make when none does.
///
/// **Cost when off.** Every hook is behind `isOn`, one relaxed load of a process-wide count and
/// a branch the processor predicts; the traced paths are out of line, and where the engine
/// delivers a change it runs a second, traced copy of its delivery loop instead of testing
/// inside the untraced one.
///
/// **What is recorded.** A traced write makes a `Cause` (its node, where it was made, its
/// batch, and the cause under way on its thread, if a sink or a pass made it), kept by node and
/// write sequence number until it is delivered, on whatever thread. A traced delivery gives
/// each changed node the causes of its changed inputs, and runs each node's sinks with the
/// thread's `traceCause` set to that node's: whatever a sink does (set a view property, request
/// an invalidation, write another relay) links back through it.
@usableFromInline
package enum Tracing {
  /// Whether any tracer is recording: `false` means certainly not.
  @inlinable @inline(__always)
  package static var isOn: Bool {
    #if canImport(Darwin)
      return recordingTracers != 0
    #else
      return recordingTracers.load(ordering: .relaxed) != 0
    #endif
  }

  // MARK: Writes

  /// The cause of a write of `node` made now, at `site`, on the thread of `context`.
  ///
  /// A source a tracer follows (``TraceFilter/property(_:)``) is recorded as changed here: its
  /// value changes with the write.
  package static func write(
    of node: AnyNode, at site: TraceSite?, _ context: ThreadContext
  ) -> Cause {
    let state = TraceState.shared
    let traced = state.tracedNode(node)
    let cause = Cause(
      .write(traced, site: site, batch: batch(of: context)),
      parents: context.trace.cause.map { [$0] } ?? [])
    if state.isWatched(traced.id) {
      state.record(
        event: .change, subject: traced.name, subjectID: traced.id,
        cause: Cause(.change(traced), parents: [cause]))
    }
    return cause
  }

  /// The number of the batch open on `context`'s thread, numbering it if it has none yet, or
  /// `nil` outside a batch.
  package static func batch(of context: ThreadContext) -> Int? {
    guard context.batch.depth > 0 else { return nil }
    if context.trace.batch == 0 { context.trace.batch = TraceState.shared.nextBatch() }
    return context.trace.batch
  }

  /// Keeps the cause of the write of `node` numbered `seq` until it is delivered. Called with
  /// the node's domain locked (so `seq` is the number the write takes).
  @usableFromInline
  package static func noteWrite(_ cause: Cause, of node: AnyNode, seq: UInt64) {
    TraceState.shared.noteWrite(cause, of: node, seq: seq)
  }

  // MARK: Deliveries

  /// The causes of the nodes that changed in the event being delivered, in the order given:
  /// a source's writes (up to the one staged), a derived node's changed inputs; a derived node
  /// a tracer follows is recorded as changed. Role, between the computing and the committing
  /// of the event.
  static func causes(ofChanged changed: UnsafeBufferPointer<Unmanaged<AnyNode>>) -> [Cause] {
    let state = TraceState.shared
    let watched = state.watchedNodes()
    // An input's cause is found by its place in `changed`: by a search while the event is
    // small, then through a table.
    var byNode: [ObjectIdentifier: Cause] = [:]
    let usesTable = changed.count > 16
    func causeOfInput(_ input: AnyNode, among causes: [Cause]) -> Cause? {
      if usesTable { return byNode[ObjectIdentifier(input)] }
      for index in causes.indices
      where changed[index].toOpaque() == Unmanaged.passUnretained(input).toOpaque() {
        return causes[index]
      }
      return nil
    }
    var causes: [Cause] = []
    causes.reserveCapacity(changed.count)
    for reference in changed {
      let node = reference.takeUnretainedValue()
      let id = ObjectIdentifier(node)
      let cause: Cause
      if node.isSource {
        let writes = state.takeWrites(of: node, upTo: node.writes.staged)
        switch writes.count {
        case 0: cause = Cause(.untraced(state.tracedNode(node)))
        case 1: cause = writes[0]
        default: cause = Cause(.group, parents: writes)
        }
      } else {
        var parents: [Cause] = []
        for input in node.inputs where input.isChanged {
          if let parent = causeOfInput(input, among: causes) { parents.append(parent) }
        }
        cause = Cause(.change(state.tracedNode(node)), parents: parents)
      }
      if usesTable { byNode[id] = cause }
      causes.append(cause)
      if !node.isSource, watched.contains(id), case .change(let traced) = cause.step {
        state.record(event: .change, subject: traced.name, subjectID: id, cause: cause)
      }
    }
    return causes
  }

  // MARK: Effects

  /// Records an invalidation of `target` of `kind`, caused by what runs on `context`'s thread,
  /// and returns its cause, for what the invalidation does.
  package static func invalidation(
    of target: AnyObject, kind: String, deduplicated: Bool, _ context: ThreadContext
  ) -> Cause {
    let object = TracedObject(target)
    let cause = Cause(
      .invalidation(object, kind: kind, deduplicated: deduplicated),
      parents: context.trace.cause.map { [$0] } ?? [])
    TraceState.shared.record(
      event: .invalidation(kind: kind, deduplicated: deduplicated), subject: object.name,
      subjectID: object.id, cause: cause)
    return cause
  }

  /// The name an invalidation of type `Invalidator` goes by: the type's name, lower camel case
  /// (`Invalidations.Layout` is `layout`).
  package static func kindName(of type: Any.Type) -> String {
    TraceState.shared.kindName(of: type)
  }

  /// The cause of a set of `object`'s `property` made now on `context`'s thread.
  package static func set(
    of object: AnyObject, property: String, declaredAt site: TraceSite?,
    _ context: ThreadContext
  ) -> Cause {
    Cause(
      .set(TracedObject(object), property: property, declaredAt: site, batch: batch(of: context)),
      parents: context.trace.cause.map { [$0] } ?? [])
  }

  /// The cause of a request of a pass of `object` made now: what runs on `context`'s thread,
  /// or, when nothing traced does, the call that requested it (`setNeedsLayout()`).
  package static func passRequest(
    of object: AnyObject, call: String, _ context: ThreadContext
  ) -> Cause {
    context.trace.cause ?? Cause(.request(TracedObject(object), call: call))
  }

  /// The name of the invalidating property declared at `origin`: found by `find` the first
  /// time (`nil`: not found, when it is called by where it is declared), then remembered.
  package static func propertyName(
    declaredAt origin: NodeOrigin, find: () -> String?
  ) -> String {
    let state = TraceState.shared
    if let known = state.propertyName(declaredAt: origin) { return known }
    let name = find() ?? "property" + (origin.site.map { "(\($0))" } ?? "")
    state.rememberPropertyName(name, declaredAt: origin)
    return name
  }

  /// Records that the pass of `object` named `name` (`layoutSubviews()`) runs now, caused by
  /// `requests`, those made since it last ran; returns its cause, for what it does.
  package static func pass(of object: AnyObject, name: String, requests: [Cause]) -> Cause {
    let traced = TracedObject(object)
    let cause = Cause(.pass(traced, name: name), parents: requests)
    TraceState.shared.record(
      event: .pass(name), subject: traced.name, subjectID: traced.id, cause: cause)
    return cause
  }

  /// Runs `body` with `cause` as the cause of what it does on `context`'s thread.
  @inline(__always)
  package static func with<Result>(
    _ cause: Cause?, _ context: ThreadContext, _ body: () throws -> Result
  ) rethrows -> Result {
    let outer = context.trace.cause
    context.trace.cause = cause
    defer { context.trace.cause = outer }
    return try body()
  }
}
