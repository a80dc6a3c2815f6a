/// Runs `body` as one change: every write inside it takes effect at once, and every subscriber
/// is notified once, with the latest values, when the outermost batch ends.
///
/// ```swift
/// batch {
///   count.accept(2)
///   count.accept(3)        // subscribers run once, with 3, after the block
/// }
/// let answer: Int = batch { count.accept(4); return 42 }
/// ```
///
/// Batches nest: an inner batch's changes are delivered when the outermost one ends. Views get
/// each invalidation at most once per batch (see ``Invalidatable``).
///
/// > Important: A batch covers the writes made inside it on the thread (or task) that runs it.
/// > Writes from other threads are neither held back nor blocked by it. It groups deliveries,
/// > not visibility: other threads' reads see each of its writes at once (a derived value read
/// > there may combine some with values from before the rest), while their sinks receive the
/// > batch whole when it ends. Keep values that must change together for every reader in one
/// > relay. See the contract's rule 16.
///
/// - Parameter body: The writes to group. Reads inside it see the new values at once.
/// - Returns: Whatever `body` returns.
/// - Throws: Whatever `body` throws. Changes made before the throw are still delivered.
public func batch<Result>(_ body: () throws -> Result) rethrows -> Result {
  // The context borrowed: `ThreadContext.current` retained and released it.
  try ThreadContext.withCurrentRethrowing { context in
    if context.batch.depth == 0 { context.takeBatchIdentity() }
    context.batch.depth += 1
    context.beginScope()
    defer {
      context.batch.depth -= 1
      if context.batch.depth == 0 {
        if !context.batch.touched.isEmpty || !context.batch.events.isEmpty {
          context.commitBatch()
        }
        if !context.batch.completions.isEmpty { context.completeAfterBatch() }
        context.computation.pulledInBatch = false
        context.trace.batch = 0
      }
      context.endScope()
    }
    return try body()
  }
}
