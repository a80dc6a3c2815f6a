import InvalidatingCore

extension Signal {
  /// Names the signal for traces, and returns it.
  ///
  /// ```swift
  /// let taps = PublishRelay<Void>().named("taps")
  /// ```
  ///
  /// Traces call an unnamed signal by where it was made (`PublishRelay(Screen.swift:8)`) or
  /// by what it was derived from (`taps.map`). A relay and the signal it hands out with
  /// `asSignal()` share one name.
  ///
  /// - Parameter name: The name, such as `taps` or `LoginViewModel.submit`.
  /// - Returns: This signal.
  @discardableResult
  public final func named(_ name: String) -> Self {
    node.setName(name)
    return self
  }
}
