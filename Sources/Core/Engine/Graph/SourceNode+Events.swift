// A source of events (`SourceNode.init(events:)`, behind `PublishRelay`): each event is
// delivered on its own, never coalesced and never kept.

extension SourceNode {
  /// Delivers `event` to every affected sink (a source of events, see `init(events:)`): at once
  /// outside a batch, like `write(_:)`, but never coalesced with other events (inside a batch
  /// each is delivered on its own, in order, when the batch ends) and never kept once
  /// delivered.
  ///
  /// Traced as `write(_:file:line:)` is.
  ///
  /// - Complexity: O(affected sinks + affected derived nodes); no allocation once warmed up,
  ///   outside a batch.
  @inlinable
  package func emit<Event>(
    _ event: Event, file: StaticString = #fileID, line: UInt = #line
  ) where Value == Event? {
    if _slowPath(Tracing.isOn) {
      emitTraced(event, file: file, line: line)
      return
    }
    ThreadContext.withCurrent { context in
      if _slowPath(context.batch.depth > 0) {
        emitInBatch(event, context)
        return
      }
      withRootLocked { root in emit(event, lockedRoot: root, context) }
    }
  }

  /// `emit(_:file:line:)` while a tracer records, as `writeTraced` is for a write.
  @usableFromInline
  final func emitTraced<Event>(_ event: Event, file: StaticString, line: UInt)
  where Value == Event? {
    let context = ThreadContext.current
    let cause = Tracing.write(of: self, at: TraceSite(file: file, line: line), context)
    if context.batch.depth > 0 {
      emitInBatch(event, context, cause: cause)
      return
    }
    Tracing.with(cause, context) {
      withRootLocked { root in emit(event, lockedRoot: root, context, cause: cause) }
    }
  }

  /// The body of `emit(_:)`, entered with `root`'s lock held; `cause` as for `write`.
  @inlinable @inline(__always)
  func emit<Event>(
    _ event: Event, lockedRoot root: Domain, _ context: ThreadContext, cause: Cause? = nil
  ) where Value == Event? {
    if _slowPath(context.role.hasCascade) {
      writeInCascadeOrder(unlocking: root, context) { root in
        emitOrQueue(event, lockedRoot: root, context, cause: cause)
      }
      return
    }
    emitOrQueue(event, lockedRoot: root, context, cause: cause)
  }

  /// `emit(_:lockedRoot:_:cause:)` once the order of this thread's sink-made writes is kept,
  /// as `deliverOrQueue` is for a write.
  @inlinable @inline(__always)
  func emitOrQueue<Event>(
    _ event: Event, lockedRoot root: Domain, _ context: ThreadContext, cause: Cause?
  ) where Value == Event? {
    root.assertLockedRoot()
    root.writeCount &+= 1
    writes.count &+= 1
    guard root.role.isFree else {
      if let cause { Tracing.noteWrite(cause, of: self, seq: writes.count) }
      writeWhileDelivering(event, lockedRoot: root, context)
      return
    }
    Engine.takeRole(of: root, context)
    if _fastPath(downstream.isEmpty) {
      // Straight to the sinks, without keeping the event anywhere.
      deliverDirectly(event, lockedRoot: root, context)
    } else {
      staged = event
      if let cause {
        writeThroughDerived(root, context, cause: cause)
      } else {
        writeThroughDerived(root, context)
      }
    }
    Engine.finishDrain(of: root, context)
    #if DEBUG
      Engine.checkLocalInvariants(of: self)
    #endif
  }

  /// `emit(_:)` inside a batch: the event waits in the thread's batch, in order with the
  /// batch's other events, and is queued for delivery when the batch ends.
  @usableFromInline
  func emitInBatch<Event>(_ event: Event, _ context: ThreadContext, cause: Cause? = nil)
  where Value == Event? {
    let root = home.lockRoot()
    root.writeCount &+= 1
    root.unsettled += 1
    writes.count &+= 1
    let seq = writes.count
    if let cause { Tracing.noteWrite(cause, of: self, seq: seq) }
    root.lock.unlock()
    context.batch.events.append(
      (
        self,
        { [self] in
          pending.append(event)
          pendingSeqs.append(seq)
        }
      ))
  }
}
