import InvalidatingTestSupport

@testable import InvalidatingCore

/// What every sink call did, stamped with a logical clock, for the checker to compare with the
/// model.
///
/// Only used from the thread running one program.
final class CallLog: @unchecked Sendable {
  // Safe: a program runs on one thread; sinks run on it too (no other thread writes).
  struct Call {
    let value: Int
    /// When the call started.
    let time: Int
    /// When each action the sink took started, in order.
    var actionTimes: [Int] = []
  }

  /// A read a sink made: of `node`, giving `value`, at `time`.
  struct Read {
    let sink: SinkID
    let node: NodeID
    let value: Int
    let time: Int
  }

  private(set) var calls: [SinkID: [Call]] = [:]
  /// Every read sinks made, in order.
  private(set) var reads: [Read] = []
  private var clock = 0

  /// Advances the logical clock and returns the new time.
  func tick() -> Int {
    clock += 1
    return clock
  }

  /// Records that `sink` was called with `value`; returns the call's index.
  func record(_ sink: SinkID, _ value: Int) -> Int {
    let time = tick()
    calls[sink, default: []].append(Call(value: value, time: time))
    return calls[sink]!.count - 1
  }

  /// Records that `sink` read `value` from `node` now.
  func recordRead(_ sink: SinkID, of node: NodeID, _ value: Int) {
    reads.append(Read(sink: sink, node: node, value: value, time: tick()))
  }

  /// Records that call `index` of `sink` takes an action now; returns its time.
  func recordAction(_ sink: SinkID, call index: Int) -> Int {
    let time = tick()
    calls[sink]![index].actionTimes.append(time)
    return time
  }
}

/// A system the reference model checks: the engine's nodes (``CoreSystem``), or the public
/// layers' relays, operators, bindings and views (``PublicSystem``). Each conformer builds the program's nodes its own way and runs each sink
/// through ``SinkScript`` so that it acts as the model expects.
protocol SystemUnderTest: AnyObject {
  var log: CallLog { get }
  func makeSource(_ id: NodeID, initial: Int)
  func makeNode(_ id: NodeID, _ kind: NodeKind, _ inputs: [NodeID])
  func write(_ id: NodeID, _ value: Int)
  func batch(_ body: () throws -> Void) rethrows
  func subscribe(_ sink: SinkID, to node: NodeID, emitsCurrentValue: Bool, _ behavior: SinkBehavior)
  func cancel(_ sink: SinkID)
  /// Lets go of the program's handle on a derived node.
  func release(_ id: NodeID)
  /// The node's value as a reader sees it now.
  func currentValue(_ id: NodeID) -> Int
  /// Whether the node's storage has been freed.
  func isFreed(_ id: NodeID) -> Bool
  /// Whether the node is a computed property that nothing observes (the engine then computes
  /// it only when read).
  func isSuspended(_ id: NodeID) -> Bool
  /// Cancels every subscription and lets go of every node.
  func releaseEverything()
  /// A view whose property, starting at `initial`, is node `id` (public layers only).
  func makeView(_ id: NodeID, initial: Int)
  /// What view `id` went through since the last call, then forgets it.
  func takeInvalidations(_ id: NodeID) -> InvalidationCounts?
  /// What view `id` went through since the last `takeInvalidations`.
  func peekInvalidations(_ id: NodeID) -> InvalidationCounts?
  /// Whether view `id` still exists.
  func isViewAlive(_ id: NodeID) -> Bool
}

/// What one view went through: how many times its property really changed, and the
/// invalidations it received.
struct InvalidationCounts {
  var changes = 0
  var layouts = 0
  var displays = 0
}

extension SystemUnderTest {
  func makeView(_ id: NodeID, initial: Int) {
    preconditionFailure("the engine alone has no views")
  }
  func takeInvalidations(_ id: NodeID) -> InvalidationCounts? { nil }
  func peekInvalidations(_ id: NodeID) -> InvalidationCounts? { nil }
  func isViewAlive(_ id: NodeID) -> Bool { false }
}

/// The engine itself: `SourceNode`, `DerivedNode`, `Property`, `batch` and `SubscriptionToken`.
final class CoreSystem: SystemUnderTest, @unchecked Sendable {
  // Safe: a program runs on one thread; its sinks run on it too.
  let log = CallLog()
  private var sources: [NodeID: SourceNode<Int>] = [:]
  private var handles: [NodeID: Property<Int>] = [:]
  private var weakNodes: [NodeID: Weak<AnyNode>] = [:]
  private var subscriptions: [SinkID: SubscriptionToken] = [:]
  private var scripts: [SinkID: SinkScript] = [:]
  /// The sink whose `subscribe` call is under way, and those cancelled before it returned.
  private var subscribing: SinkID?
  private var cancelledWhileSubscribing: Set<SinkID> = []

  func makeSource(_ id: NodeID, initial: Int) {
    let source = SourceNode(initial)
    sources[id] = source
    handles[id] = Property(node: source)
    weakNodes[id] = Weak(source)
  }

  func makeNode(_ id: NodeID, _ kind: NodeKind, _ inputs: [NodeID]) {
    if let formula = kind.formula {
      let property = computedProperty(
        formula, reading: handles.filter { inputs.contains($0.key) })
      handles[id] = property
      weakNodes[id] = Weak(property.node)
      return
    }
    let inputNodes = inputs.map { handles[$0]!.node }
    let node: DerivedNode<Int>
    if kind.isDynamic {
      node = Self.switchLatest(
        selector: inputNodes[0], among: inputs.dropFirst().map { handles[$0]! })
    } else {
      node = DerivedNode(inputs: inputNodes) { mode, previous in
        kind.evaluate(inputNodes.map { $0.read(mode) }, previous: previous)
      }
    }
    handles[id] = Property(node: node)
    weakNodes[id] = Weak(node)
  }

  /// A node following whichever of `candidates` the selector's value picks, switching its
  /// inputs from inside its own delivery-mode compute, as `flatMapLatest` does.
  private static func switchLatest(
    selector: ValueNode<Int>, among candidates: [Property<Int>]
  ) -> DerivedNode<Int> {
    let this = SelfReference()
    let count = candidates.count + 1
    @Sendable func target(_ value: Int) -> ValueNode<Int> {
      candidates[NodeKind.selected(by: value, amongInputs: count) - 1].node
    }
    // Created over every candidate, then switched to the selected one at once: this merges
    // the candidates' domains up front, so no domain merges in the middle of a delivery.
    // - Switching into a domain that has batched writes still queued is a known engine bug
    //   (`FoundBugsTests.switchIntoDomainWithQueuedBatchWrite`); merging first keeps the random
    //   programs from finding it over and over.
    // - The model orders events by when they were queued, which is what every node sees as
    //   long as domains do not merge mid-delivery. (When they do, a write to the other domain
    //   may already be delivered when the switch reads it, which the contract allows but the
    //   model would call a missed call.)
    // - Kept merged as long as the node (a node over them all, which the node's computation
    //   holds): domains split once what joined them is gone (issue 26, point 4), and a read
    //   inside a batch of a candidate in another domain is point 2 of that issue.
    let merger = DerivedNode<Int>(inputs: [selector] + candidates.map(\.node)) { _, _ in 0 }
    merger.retainHandle()
    merger.releaseHandle()  // out of the graph (suspended), so that only the node holds it
    let node = DerivedNode<Int>(inputs: [selector] + candidates.map(\.node)) { mode, _ in
      withExtendedLifetime(merger) {}
      let followed = target(selector.read(mode))
      if mode == .delivery, let node = this.node, node.inputs.last !== followed {
        Engine.switchInputs(of: node, to: [selector, followed])
      }
      return followed.read(mode)
    }
    this.node = node
    // Follow the input the node's delivered value came from. (Following the one the newest
    // writes select, as `flatMapLatest` does, is the known bug
    // `FoundBugsTests.switchingNodeCreatedInBatchFollowsTheWrongInput`.)
    Engine.switchInputs(of: node, to: [selector, target(selector.read(.delivery))])
    return node
  }

  func write(_ id: NodeID, _ value: Int) { sources[id]!.write(value) }

  func batch(_ body: () throws -> Void) rethrows {
    try InvalidatingCore.batch(body)
  }

  func subscribe(
    _ sink: SinkID, to node: NodeID, emitsCurrentValue: Bool, _ behavior: SinkBehavior
  ) {
    scripts[sink] = SinkScript(behavior)
    subscribing = sink
    let token = handles[node]!.node.subscribe(emitsCurrentValue: emitsCurrentValue) {
      [weak self] value in self?.run(sink, value)
    }
    subscribing = nil
    if cancelledWhileSubscribing.remove(sink) != nil {
      token.cancel()
    } else {
      subscriptions[sink] = token
    }
  }

  /// One sink call: record it, then act as its script says.
  private func run(_ sink: SinkID, _ value: Int) {
    // A sink cancelled during its own first call (before its token existed) acts cancelled.
    if cancelledWhileSubscribing.contains(sink) { return }
    let index = log.record(sink, value)
    if case .read(let target) = scripts[sink]?.behavior, let read = handles[target] {
      log.recordRead(sink, of: target, read.value)
    }
    guard let actions = scripts[sink]?.react(to: value) else { return }
    for action in actions {
      _ = log.recordAction(sink, call: index)
      switch action {
      case .write(let source, let value): sources[source]?.write(value)
      case .cancel(let target): cancel(target)
      }
    }
  }

  func cancel(_ sink: SinkID) {
    if sink == subscribing { cancelledWhileSubscribing.insert(sink) }
    subscriptions.removeValue(forKey: sink)?.cancel()
  }

  func release(_ id: NodeID) { handles[id] = nil }

  func currentValue(_ id: NodeID) -> Int { handles[id]!.value }

  func isFreed(_ id: NodeID) -> Bool { weakNodes[id]?.object == nil }

  func isSuspended(_ id: NodeID) -> Bool { weakNodes[id]?.object?.isUnfollowedLocked ?? false }

  func releaseEverything() {
    for token in subscriptions.values { token.cancel() }
    subscriptions = [:]
    scripts = [:]
    handles = [:]
    sources = [:]
  }
}

/// A computed property evaluating `formula`, reading the properties in `handles` (which its
/// closure captures, as a user's closure captures what it reads), as `Property { ... }` is
/// written.
///
/// Nothing keeps what its branches read in one domain up front (unlike `switchLatest`'s
/// candidates): a branch that flips inside a delivery merges domains then, which is where
/// issue 26's "depends on itself" stop was. The model orders events by when they were queued;
/// the engine delivers a write queued in another domain by this thread's nested delivery
/// before an older one of the outer domain, which only a merge in between could show.
func computedProperty(_ formula: Formula, reading handles: [NodeID: Property<Int>])
  -> Property<Int>
{
  Property<Int> { formula.evaluate { handles[$0]!.value } }
}

/// A node over `nodes` that holds them in one domain while it lives, and notifies nobody.
func domainMerger(_ nodes: [AnyNode]) -> Property<Int> {
  Property(node: DerivedNode(inputs: nodes) { _, previous in previous == nil ? 0 : nil })
}

/// Lets a `switchLatest` transform reach its own node without keeping it alive.
private final class SelfReference: @unchecked Sendable {
  // Safe: written once, right after the node is created and before any other thread sees it.
  weak var node: DerivedNode<Int>?
}
