extension SourceNode {
  /// Changes the newest value in place with `body`, holding the domain's lock from the read to
  /// the write, then writes the result as `write(_:)` does: an atomic read-modify-write.
  ///
  /// The one place where the engine runs user code under its lock (the lock is what makes the
  /// change atomic): `body` must not read, write or subscribe to any node. On Linux a body that
  /// touches a node of this graph stops with a message naming the mistake (it would wait for
  /// itself for ever); Apple's `os_unfair_lock` stops a recursive lock itself. (A read of a
  /// source whose value is read without the lock, `readsLatestWithoutLock`, returns its value
  /// from before the change instead.) `body` changes a copy of `latest`, so the value it
  /// replaces is still held by `latest` and is released, like every replaced value, after the
  /// lock. If `body` throws, nothing is written.
  ///
  /// Traced as `write(_:file:line:)` is, at `file:line`.
  ///
  /// - Returns: What `body` returns.
  /// - Complexity: `write(_:)`, plus `body` and a copy of the value.
  package func modify<Result>(
    file: StaticString = #fileID, line: UInt = #line, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    // The context borrowed: `ThreadContext.current` retained and released it.
    return try ThreadContext.withCurrentRethrowing { context in
      let cause =
        Tracing.isOn ? Tracing.write(of: self, at: TraceSite(file: file, line: line), context) : nil
      let root = home.lockRoot()
      var value = latest
      let result: Result
      let held = root.lock.holdForUserCode()
      do {
        defer { root.lock.endUserCode(held) }
        result = try body(&value)
      } catch {
        root.lock.unlock()
        withExtendedLifetime(value) {}  // released outside the lock
        throw error
      }
      if _slowPath(context.batch.depth > 0) {
        if let cause { Tracing.noteWrite(cause, of: self, seq: writes.count &+ 1) }
        writeInBatch(value, lockedRoot: root, context)
      } else if let cause {
        Tracing.with(cause, context) { write(value, lockedRoot: root, context, cause: cause) }
      } else {
        write(value, lockedRoot: root, context)
      }
      return result
    }
  }
}
