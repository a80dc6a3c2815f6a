import Invalidating
import InvalidatingTestSupport

@testable import InvalidatingCore

/// The public layers: sources are `BehaviorRelay`s and `@ReadWrite` properties, derived nodes
/// are `map`, `combineLatest`, `removeDuplicates`, `filter` and `flatMapLatest`, sinks are
/// `subscribe` and `changes.subscribe`, bindings are `bind(to: object, keyPath)` and
/// `bind(to: view, keyPath)`, and views are `HeadlessView`s with a `@ViewInvalidating`
/// property whose `$x` is a node.
///
/// Runs on the main actor (views are main-actor objects, and a view binding delivers
/// synchronously only there); only used from the thread running one program.
final class PublicSystem: SystemUnderTest, @unchecked Sendable {
  // Safe: a program runs on the main actor; its sinks run there too (no other thread writes).
  let log = CallLog()
  private var relays: [NodeID: BehaviorRelay<Int>] = [:]
  private var handles: [NodeID: Property<Int>] = [:]
  private var weakNodes: [NodeID: Weak<AnyNode>] = [:]
  private var views: [NodeID: ModelView] = [:]
  private var weakViews: [NodeID: Weak<ModelView>] = [:]
  private var forwarders: [SinkID: Forwarder] = [:]
  private var subscriptions: [SinkID: SubscriptionToken] = [:]
  /// The tokens of view bindings, which their views hold.
  private var viewBindings: [SinkID: Weak<SubscriptionToken>] = [:]
  private var scripts: [SinkID: SinkScript] = [:]
  /// The sources each node is computed from, through every input and every branch.
  private var upstream: [NodeID: Set<NodeID>] = [:]
  private var subscribing: SinkID?
  private var cancelledWhileSubscribing: Set<SinkID> = []

  func makeSource(_ id: NodeID, initial: Int) {
    let relay: BehaviorRelay<Int>
    let property: Property<Int>
    if id.isMultiple(of: 2) {
      relay = BehaviorRelay(initial)
      property = relay.asProperty()
    } else {
      let model = ViewModel(initial)
      relay = model.$value
      property = model.value
    }
    relays[id] = relay
    handles[id] = property
    weakNodes[id] = Weak(property.node)
    upstream[id] = [id]
  }

  func makeView(_ id: NodeID, initial: Int) {
    MainActor.assumeIsolated {
      let view = ModelView(initial: initial, log: log)
      views[id] = view
      weakViews[id] = Weak(view)
      let property = view.$x
      handles[id] = property
      weakNodes[id] = Weak(property.node)
      upstream[id] = [id]
    }
  }

  func makeNode(_ id: NodeID, _ kind: NodeKind, _ inputs: [NodeID]) {
    upstream[id] = inputs.reduce(into: []) { $0.formUnion(upstream[$1]!) }
    let properties = inputs.map { handles[$0]! }
    let property: Property<Int>
    switch kind {
    case .computed(let formula):
      property = computedProperty(formula, reading: handles.filter { inputs.contains($0.key) })
    case .map(let function):
      property = properties[0].map { function($0) }
    case .combine:
      property = Self.combine(properties)
    case .removeDuplicates:
      property = properties[0].removeDuplicates()
    case .filter(let modulus, let residue):
      property = properties[0].filter(initial: properties[0].value) {
        floorMod($0, modulus) != residue
      }
    case .switchLatest:
      let candidates = Array(properties.dropFirst())
      let count = properties.count
      // Merges the candidates' domains up front, as `CoreSystem` does, so that no domain merges
      // in the middle of a delivery: the model orders events by when they were queued, which
      // a switch into a domain whose write was already delivered (as the contract allows)
      // would contradict. (Over the sources, not the candidates: a computed candidate stays
      // suspended while the switch does not follow it.) Kept as long as the node: domains
      // split once what joined them is gone (issue 26, point 4).
      let sources = upstream[id]!.sorted().compactMap { weakNodes[$0]?.object }
      let merger = sources.count > 1 ? domainMerger(sources) : nil
      property = properties[0].flatMapLatest { selector in
        withExtendedLifetime(merger) {}
        return candidates[NodeKind.selected(by: selector, amongInputs: count) - 1]
      }
    }
    handles[id] = property
    weakNodes[id] = Weak(property.node)
  }

  @Sendable private static func mix(_ values: Int...) -> Int {
    NodeKind.combine.evaluate(values, previous: nil)!
  }

  /// `combineLatest` of 2–4 properties, mixed as `NodeKind.combine` does.
  private static func combine(_ inputs: [Property<Int>]) -> Property<Int> {
    switch inputs.count {
    case 2:
      return Property.combineLatest(inputs[0], inputs[1]).map { Self.mix($0, $1) }
    case 3:
      return Property.combineLatest(inputs[0], inputs[1], inputs[2]).map { Self.mix($0, $1, $2) }
    default:
      return Property.combineLatest(inputs[0], inputs[1], inputs[2], inputs[3])
        .map { Self.mix($0, $1, $2, $3) }
    }
  }

  func write(_ id: NodeID, _ value: Int) {
    if let relay = relays[id] {
      relay.accept(value)
    } else if let view = views[id] {
      MainActor.assumeIsolated { view.set(value) }
    }
  }

  func batch(_ body: () throws -> Void) rethrows {
    try InvalidatingCore.batch(body)
  }

  func subscribe(
    _ sink: SinkID, to node: NodeID, emitsCurrentValue: Bool, _ behavior: SinkBehavior
  ) {
    scripts[sink] = SinkScript(behavior)
    subscribing = sink
    let property = handles[node]!
    let token: SubscriptionToken
    if case .forward(let target) = behavior {
      if let view = views[target] {
        token = MainActor.assumeIsolated {
          view.binding = sink
          return property.bind(to: view, \.bound)
        }
        // The view keeps its binding's token, as views keep their subscriptions: releasing
        // the view ends the binding.
        MainActor.assumeIsolated { view.bindingToken = token }
      } else {
        let forwarder = Forwarder(sink: sink, relay: relays[target]!, log: log)
        forwarders[sink] = forwarder
        token = property.bind(to: forwarder, \.value)
      }
    } else if emitsCurrentValue {
      token = property.subscribe { [weak self] value in self?.run(sink, value) }
    } else {
      token = property.changes.subscribe { [weak self] value in self?.run(sink, value) }
    }
    subscribing = nil
    if cancelledWhileSubscribing.remove(sink) != nil {
      token.cancel()
    } else if case .forward(let target) = behavior, views[target] != nil {
      viewBindings[sink] = Weak(token)
    } else {
      subscriptions[sink] = token
    }
  }

  /// One sink call: record it, then act as its script says.
  private func run(_ sink: SinkID, _ value: Int) {
    if cancelledWhileSubscribing.contains(sink) { return }
    let index = log.record(sink, value)
    if case .read(let target) = scripts[sink]?.behavior, handles[target] != nil {
      log.recordRead(sink, of: target, currentValue(target))
    }
    guard let actions = scripts[sink]?.react(to: value) else { return }
    for action in actions {
      _ = log.recordAction(sink, call: index)
      switch action {
      case .write(let source, let value): write(source, value)
      case .cancel(let target): cancel(target)
      }
    }
  }

  func cancel(_ sink: SinkID) {
    if sink == subscribing { cancelledWhileSubscribing.insert(sink) }
    subscriptions.removeValue(forKey: sink)?.cancel()
    // The view keeps the cancelled token, as a view keeps its `[SubscriptionToken]`: a cancelled
    // token must not keep its node alive (`FoundBugsTests.cancelledTokenKeepsItsNode`).
    viewBindings.removeValue(forKey: sink)?.object?.cancel()
  }

  func release(_ id: NodeID) {
    handles[id] = nil
    views[id] = nil
  }

  func currentValue(_ id: NodeID) -> Int {
    if let view = views[id] { return MainActor.assumeIsolated { view.x } }
    return handles[id]!.value
  }

  func isFreed(_ id: NodeID) -> Bool { weakNodes[id]?.object == nil }

  func isViewAlive(_ id: NodeID) -> Bool { weakViews[id]?.object != nil }

  func isSuspended(_ id: NodeID) -> Bool { weakNodes[id]?.object?.isUnfollowedLocked ?? false }

  func takeInvalidations(_ id: NodeID) -> InvalidationCounts? {
    guard let view = views[id] else { return nil }
    return MainActor.assumeIsolated {
      defer { view.counts = InvalidationCounts() }
      return view.counts
    }
  }

  func peekInvalidations(_ id: NodeID) -> InvalidationCounts? {
    guard let view = views[id] else { return nil }
    return MainActor.assumeIsolated { view.counts }
  }

  func releaseEverything() {
    for token in subscriptions.values { token.cancel() }
    for token in viewBindings.values { token.object?.cancel() }
    subscriptions = [:]
    viewBindings = [:]
    scripts = [:]
    forwarders = [:]
    handles = [:]
    relays = [:]
    views = [:]
  }
}

/// A view model whose source is a `@ReadWrite` property.
private final class ViewModel {
  @ReadWrite var value: Property<Int>

  init(_ initial: Int) {
    _value = ReadWrite(initial)
  }
}

/// The target of a `bind(to: object, keyPath)` binding: logs each value it is given as a call
/// of the binding's sink, then writes it into a relay.
private final class Forwarder: @unchecked Sendable {
  // Safe: only used from the thread running one program.
  let sink: SinkID
  let relay: BehaviorRelay<Int>
  let log: CallLog

  init(sink: SinkID, relay: BehaviorRelay<Int>, log: CallLog) {
    self.sink = sink
    self.relay = relay
    self.log = log
  }

  var value: Int {
    get { relay.value }
    set {
      let index = log.record(sink, newValue)
      _ = log.recordAction(sink, call: index)
      relay.accept(newValue)
    }
  }
}

/// A view with one `@ViewInvalidating(.layout, .display)` property, counting its changes and
/// the invalidations it gets.
@MainActor
final class ModelView: HeadlessView {
  @ViewInvalidating(.layout, .display) var x = 0
  var counts = InvalidationCounts()
  /// The sink label of the binding into ``bound``, for the call log.
  var binding: SinkID?
  var bindingToken: SubscriptionToken?
  private let log: CallLog

  init(initial: Int, log: CallLog) {
    self.log = log
    super.init(frame: .zero)
    _x = ViewInvalidating(wrappedValue: initial, .layout, .display)
  }

  /// Sets the property, counting a real change.
  func set(_ value: Int) {
    if value != x { counts.changes += 1 }
    x = value
  }

  /// The binding's way in: logs the call (and, when the value is new, the write of `$x` it
  /// makes), then sets the property.
  var bound: Int {
    get { x }
    set {
      if let binding {
        let index = log.record(binding, newValue)
        if newValue != x { _ = log.recordAction(binding, call: index) }
      }
      set(newValue)
    }
  }

  override func setNeedsLayout() {
    counts.layouts += 1
    super.setNeedsLayout()
  }

  override func setNeedsDisplay() {
    counts.displays += 1
    super.setNeedsDisplay()
  }
}
