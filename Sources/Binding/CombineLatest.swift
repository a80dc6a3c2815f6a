import InvalidatingCore

extension Property where Value == Never {
  /// A property whose value is the tuple of the current values of `properties`, updated when
  /// any of them changes.
  ///
  /// ```swift
  /// let pair: Property<(Int, String)> = Property.combineLatest(count, title)
  /// let all = Property.combineLatest(a, b, c, d, e, f)   // any number of inputs
  /// ```
  ///
  /// The engine recomputes the tuple once per delivered change, after every input has taken
  /// its new value: when several inputs change together (in one `batch`, or because they are
  /// derived from one source) subscribers see one tuple with every new value, never a mix of
  /// old and new.
  ///
  /// With no inputs, the result is a constant `()`.
  ///
  /// To compute one value from many inputs, give the combined property a `let` of its own and
  /// transform it in the next statement:
  ///
  /// ```swift
  /// let order = Property.combineLatest(count, price, name, isMember, tags, discount)
  /// let points = order.map { count, price, name, isMember, tags, discount in
  ///   count * 10 + Int(price) + (isMember ? 50 : 0) + tags.count - (discount ?? 0)
  /// }
  /// ```
  ///
  /// Written as one expression, `Property.combineLatest(a, b, c, d, e).map { $0 + $1 + ... }`
  /// takes seconds to type-check from about five inputs on, and fails from about seven
  /// ("unable to type-check this expression in reasonable time"): Swift works out the types
  /// of a parameter pack after it has tried the closure's operators with each of their
  /// overloads, so every operator multiplies the work. A combined property of its own knows
  /// its tuple type before the closure is checked, which then costs what the same closure
  /// costs anywhere else (tens of milliseconds for ten inputs of different types). Two
  /// statements instead of one make no difference to what runs.
  ///
  /// - Parameters:
  ///   - properties: The properties to combine, in tuple order. They may repeat.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  /// - Returns: The combined property. It keeps the inputs' storage (not the relays that own
  ///   it) alive, and completes when every input has completed.
  /// - Complexity: O(number of inputs) per change.
  @inlinable
  public static func combineLatest<each Input>(
    _ properties: repeat Property<each Input>, file: StaticString = #fileID, line: UInt = #line
  ) -> Property<(repeat each Input)> {
    // Held unretained: the derived node's `inputs` keep every input alive for as long as the
    // closure can run, and reference counting here would cost more than the reads.
    let nodes = (repeat Unmanaged.passUnretained((each properties).node))
    var inputs: [AnyNode] = []
    for input in repeat each properties { inputs.append(input.node) }
    guard !inputs.isEmpty else {
      return Property<(repeat each Input)>(
        value: (repeat ValueNode.read(each nodes, .latest)))
    }
    return ._derived(from: inputs, origin: .made("combineLatest", file: file, line: line)) {
      mode, _ in
      (repeat ValueNode.read(each nodes, mode))
    }
  }

  /// ``combineLatest(_:file:line:)->Property<(Input)>`` of two properties.
  ///
  /// The same operator, spelled out for the most common arities: inside a parameter pack the
  /// optimizer cannot specialize each input's read, so a fixed arity saves a generic call per
  /// input on every change. Swift picks this overload on its own.
  ///
  /// - Parameters:
  ///   - first: The property whose value is the tuple's first element.
  ///   - second: The property whose value is the tuple's second element.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  /// - Returns: The combined property.
  @inlinable
  public static func combineLatest<First, Second>(
    _ first: Property<First>, _ second: Property<Second>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Property<(First, Second)> {
    // Unretained: kept alive by the node's inputs (see `map`).
    let a = Unmanaged.passUnretained(first.node)
    let b = Unmanaged.passUnretained(second.node)
    return ._derived(
      from: [first.node, second.node], origin: .made("combineLatest", file: file, line: line),
      compute: { mode, _ in (ValueNode.read(a, mode), ValueNode.read(b, mode)) },
      deliver: {
        DerivedNode.stage((ValueNode.read(a, .delivery), ValueNode.read(b, .delivery)), on: $0)
      })
  }

  /// ``combineLatest(_:file:line:)->Property<(Input)>`` of three properties, spelled out for speed like
  /// ``combineLatest(_:_:file:line:)``.
  ///
  /// - Parameters:
  ///   - first: The property whose value is the tuple's first element.
  ///   - second: The property whose value is the tuple's second element.
  ///   - third: The property whose value is the tuple's third element.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  /// - Returns: The combined property.
  @inlinable
  public static func combineLatest<First, Second, Third>(
    _ first: Property<First>, _ second: Property<Second>, _ third: Property<Third>,
    file: StaticString = #fileID, line: UInt = #line
  ) -> Property<(First, Second, Third)> {
    // Unretained: kept alive by the node's inputs (see `map`).
    let a = Unmanaged.passUnretained(first.node)
    let b = Unmanaged.passUnretained(second.node)
    let c = Unmanaged.passUnretained(third.node)
    return ._derived(
      from: [first.node, second.node, third.node],
      origin: .made("combineLatest", file: file, line: line),
      compute: { mode, _ in
        (ValueNode.read(a, mode), ValueNode.read(b, mode), ValueNode.read(c, mode))
      },
      deliver: {
        DerivedNode.stage(
          (
            ValueNode.read(a, .delivery), ValueNode.read(b, .delivery), ValueNode.read(c, .delivery)
          ),
          on: $0)
      })
  }
}

extension Property where Value == Never {
  /// A property whose value is `combine` of the current values of `properties`, computed again
  /// when any of them changes (RxSwift's `combineLatest(_:_:resultSelector:)`).
  ///
  /// ```swift
  /// let canSubmit = Property.combineLatest(name, email, agreed) { name, email, agreed in
  ///   !name.isEmpty && email.contains("@") && agreed
  /// }
  /// ```
  ///
  /// The same as ``combineLatest(_:file:line:)->Property<(Input)>`` followed by `map`, in one
  /// node: glitch-free, once per delivered change. For many inputs of different types, see
  /// that operator's note on type-checking: a combined property of its own, then `map`,
  /// type-checks faster than one expression with a long closure.
  ///
  /// - Parameters:
  ///   - properties: The properties to combine, in the order `combine` takes them.
  ///   - file: The file that calls the operator, for traces; leave the default.
  ///   - line: The line that calls the operator, for traces; leave the default.
  ///   - combine: A pure function of the values. It runs on the delivering thread.
  /// - Returns: The combined property.
  /// - Complexity: O(number of inputs) per change, plus `combine`.
  @inlinable
  public static func combineLatest<each Input, Combined>(
    _ properties: repeat Property<each Input>, file: StaticString = #fileID, line: UInt = #line,
    _ combine: @escaping @Sendable (repeat each Input) -> Combined
  ) -> Property<Combined> {
    let nodes = (repeat Unmanaged.passUnretained((each properties).node))
    var inputs: [AnyNode] = []
    for input in repeat each properties { inputs.append(input.node) }
    guard !inputs.isEmpty else {
      return Property<Combined>(value: combine(repeat ValueNode.read(each nodes, .latest)))
    }
    return ._derived(from: inputs, origin: .made("combineLatest", file: file, line: line)) {
      mode, _ in
      combine(repeat ValueNode.read(each nodes, mode))
    }
  }
}
