extension Property {
  /// Names the property for traces and messages, and returns it.
  ///
  /// ```swift
  /// private let countRelay = BehaviorRelay(0).named("count")
  /// let total = Property { price.value * Double(quantity.value) }.named("total")
  /// ```
  ///
  /// A ``Tracer``'s records and graph call an unnamed property by where it was made
  /// (`BehaviorRelay(CounterViewModel.swift:4)`) or by what it was derived from
  /// (`count.map`); a named one by its name, and what is derived from it after it
  /// (`count.map`). A relay and the properties it hands out with `asProperty()` share one
  /// name: naming either names both.
  ///
  /// - Parameter name: The name, such as `count` or `CounterViewModel.count`.
  /// - Returns: This property.
  /// - Complexity: Names cost nothing until a tracer records; naming allocates the name.
  @discardableResult
  public final func named(_ name: String) -> Self {
    node.setName(name)
    return self
  }
}
