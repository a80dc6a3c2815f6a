extension ValueNode {
  /// The value delivered so far (what subscribers have been given), from any thread.
  ///
  /// Inside a batch, or while a write waits for delivery, this lags `currentValue()`. A
  /// derived node that picks its inputs by value (`flatMapLatest`) picks its first input from
  /// this, so that its edges and its delivered value describe the same state.
  package final func deliveredValue() -> Value {
    let root = home.lockRoot()
    defer { root.lock.unlock() }
    return delivered
  }

  /// `deliveredValue()` and the `changeCount` it is the value of, read together.
  package final func deliveredValueAndChangeCount() -> (value: Value, changeCount: UInt64) {
    let root = home.lockRoot()
    defer { root.lock.unlock() }
    return (delivered, changeCount)
  }
}
