/// What a sink does in reaction to one value: shared by the engine's sinks and the model, so
/// both agree on *what* a sink does and the model checks *when* it was called.
enum SinkAction: Equatable {
  case write(NodeID, Int)
  case cancel(SinkID)
}

/// A sink's behaviour and how many more times it may act.
struct SinkScript {
  let behavior: SinkBehavior
  private var remaining: Int

  init(_ behavior: SinkBehavior) {
    self.behavior = behavior
    switch behavior {
    case .record: remaining = 0
    case .write(_, let times, _): remaining = times
    case .cancel: remaining = 1
    case .forward: remaining = .max
    case .read: remaining = 0
    }
  }

  /// The actions to take on seeing `value`, in order.
  mutating func react(to value: Int) -> [SinkAction] {
    guard remaining > 0 else { return [] }
    switch behavior {
    case .record:
      return []
    case .write(let condition, _, let writes):
      guard condition.matches(value) else { return [] }
      remaining -= 1
      return writes.map { .write($0.source, $0.value) }
    case .cancel(let target, let condition):
      guard condition.matches(value) else { return [] }
      remaining -= 1
      return [.cancel(target)]
    case .forward(let target):
      return [.write(target, value)]
    case .read:
      return []
    }
  }
}

/// A sink call the model expects: `sink`, subscribed to `node` as its `rank`-th subscriber,
/// receives `value`.
struct ExpectedCall {
  let sink: SinkID
  let node: NodeID
  let value: Int
  let rank: Int
}

/// The reference model: the engine's contract in plain Swift, with no locks, no domains and no
/// engine code.
///
/// It keeps every node's delivered value and every source's newest value, and a queue of
/// events keyed by the logical time at which they were made (a top-level write, the end of the
/// outermost batch, or a write from inside a sink). Events are delivered one at a time, oldest
/// first, which is rule 4 (queued, first in, first out) as far as any single node can tell;
/// writes to unrelated parts of the graph may really be delivered in another order, which no
/// sink can observe. (That holds while no two domains merge in the middle of a delivery. The
/// systems under test create nodes only between deliveries, and a switching node over all its
/// candidates; a computed property, though, joins the domain of what a flipped branch reads
/// in the middle of a delivery, as users' do. There the model keeps the contract's order, one
/// queue per thread, first in, first out, which the engine keeps across domains too (see
/// `Sources/Core/Engine/Delivery/CascadeOrder.swift`).)
///
/// A computed property (`NodeKind.computed`) is a pure function of what its formula reads: its
/// delivered value is its formula on the delivered values, whether the engine follows it or
/// suspends it, and notifies only when it changes (`Int` is `Equatable`).
///
/// Delivering an event recomputes, in creation order (a topological order), each derived node
/// one of whose inputs changed, and lists the calls every sink of a changed node must get:
/// once per event, with the node's final value for it (rules 2 and 3).
final class ReferenceModel {
  struct Node {
    /// `nil` for a source.
    let kind: NodeKind?
    let inputs: [NodeID]
    /// The value delivered to sinks.
    var value: Int
    /// For a source, the newest value written (ahead of `value` while a write waits).
    var latest: Int
    /// Whether the program holds a handle on the node (sources are always held).
    var isHeld = true
    /// When `latest` was written: the model learns of writes out of real-time order (a write
    /// from a sink of a nested delivery is seen after those of the sink that caused it).
    var latestTime = 0
    /// For a source: how many writes it has taken, and which of them `value` is.
    var writeSeq = 0
    var deliveredSeq = 0
    /// For a derived node: how many deliveries changed its value (the engine's change count).
    var changes = 0
  }

  struct Sink {
    let node: NodeID
    var script: SinkScript
    /// Logical time of the subscription and of its cancellation.
    let subscribedAt: Int
    var cancelledAt: Int?
    /// When the sink subscribed while writes waited for delivery, it started from the newest
    /// value: the sources upstream with their newest write then. It skips deliveries until
    /// each has delivered that write, and the one that brings exactly that state (rule 11).
    var catchingUp: CatchUp?
  }

  /// What a sink that started from the newest value waits for (see `Sink.catchingUp`).
  struct CatchUp {
    /// The sources upstream, and those its first value read beyond the links in the engine's
    /// domain of the node, each with its newest write then.
    var upstream: [(source: NodeID, seq: Int)]
    /// The sources its first value read in other domains: waited for once links join them to
    /// the node, and taken for the state it started from only while they have no newer write
    /// (a delivery reads them at their newest writes until they are joined).
    var foreign: [(source: NodeID, seq: Int)]
    /// The derived nodes of other domains its first value read as their domains delivered them
    /// (attached, nothing on its way there), each with its change count then: their sources
    /// are not read, so a delivery is the first value's repeat only while none of them has
    /// changed since. Nothing to wait for: such a value is never older than what it delivers.
    var foreignDerived: [(node: NodeID, changes: Int)] = []
  }

  /// One domain's counters, as the engine keeps them: writes taken, and writes not delivered
  /// yet (a batch's repeated writes to one source count once).
  struct DomainCounts {
    var writes = 0
    var unsettled = 0
    var settled: Int { writes - unsettled }
  }

  struct Event {
    let key: Int
    let writes: [(source: NodeID, value: Int, seq: Int)]
  }

  private(set) var nodes: [NodeID: Node] = [:]
  /// Node labels in creation order: inputs always come before the nodes computed from them.
  private(set) var order: [NodeID] = []
  private(set) var sinks: [SinkID: Sink] = [:]
  /// The nodes that are views' properties (sources a program writes by setting the property).
  private(set) var views: Set<NodeID> = []

  private var sinksByNode: [NodeID: [SinkID]] = [:]
  /// Domains, as the engine merges them: union–find over nodes, counters at the roots.
  private var domainParent: [NodeID: NodeID] = [:]
  private var domainCounts: [NodeID: DomainCounts] = [:]
  /// Every value each source took, with the logical time it was written (in the order the
  /// model learned of them, not always the order of the times): what a read at a given time
  /// sees.
  private var history: [NodeID: [(time: Int, value: Int)]] = [:]
  /// How many deliveries changed what a computed property reads (the engine relinks it).
  private(set) var relinks = 0
  private var batchDepth = 0
  private var batchTouched: [NodeID] = []
  private var pending: [Event] = []

  var isInBatch: Bool { batchDepth > 0 }
  /// What nodes made while writes waited for delivery read first, from the newest values,
  /// before they were refreshed from the delivered ones: the engine's domains join those
  /// until the writes are delivered (see `linkedComponent(of:)`).
  private var creationReads: [(NodeID, NodeID)] = []

  // MARK: Which steps apply

  func isSource(_ id: NodeID) -> Bool { nodes[id].map { $0.kind == nil } ?? false }
  func isHeld(_ id: NodeID) -> Bool { nodes[id]?.isHeld ?? false }

  /// The nodes that can never change: released views, computed properties whose runs read
  /// only constants (or nothing), `switchLatest`s whose selector and the input it selects are
  /// constant, and derived nodes all of whose inputs are constant. The engine completes a node
  /// once every input it follows has completed (once attached, for a computed property), and
  /// never suspends it after that.
  ///
  /// A `switchLatest` follows its selector and the input selected, not its other candidates:
  /// with a constant selector it never switches, so its other candidates, live or not, never
  /// reach it (a `flatMapLatest` is linked to those two only, and completes with them).
  func constantNodes() -> Set<NodeID> {
    var constant: Set<NodeID> = []
    // In creation order, inputs first.
    for id in order {
      let node = nodes[id]!
      let isConstant: Bool
      if node.kind != nil {
        isConstant = reads(of: id) { nodes[$0]!.value }.allSatisfy(constant.contains)
      } else {
        isConstant = views.contains(id) && !node.isHeld
      }
      if isConstant { constant.insert(id) }
    }
    return constant
  }

  func canDerive(_ id: NodeID, _ kind: NodeKind, _ inputs: [NodeID]) -> Bool {
    nodes[id] == nil && kind.arity.contains(inputs.count) && inputs.allSatisfy(isHeld)
  }

  func canSubscribe(_ sink: SinkID, to node: NodeID, _ behavior: SinkBehavior = .record) -> Bool {
    guard sinks[sink] == nil, isHeld(node) else { return false }
    guard case .forward(let target) = behavior else { return true }
    guard canWrite(target) else { return false }
    // One binding per view; and no binding may feed back into its own source, which would
    // never settle.
    if views.contains(target), sinks.values.contains(where: { $0.binds(target) }) {
      return false
    }
    return !downstream(of: target).contains(node)
  }

  /// Sources a program may write: relays, and views it still holds.
  func canWrite(_ id: NodeID) -> Bool { isSource(id) && isHeld(id) }

  /// Every node a change of `start` can reach, through derivations and live bindings.
  private func downstream(of start: NodeID) -> Set<NodeID> {
    var reached: Set<NodeID> = [start]
    var grew = true
    while grew {
      grew = false
      for id in order where !reached.contains(id) {
        if nodes[id]!.inputs.contains(where: reached.contains) {
          reached.insert(id)
          grew = true
        }
      }
      for sink in sinks.values where sink.cancelledAt == nil && reached.contains(sink.node) {
        if case .forward(let target) = sink.script.behavior, reached.insert(target).inserted {
          grew = true
        }
      }
    }
    return reached
  }

  func canCancel(_ sink: SinkID) -> Bool {
    sinks[sink].map { $0.cancelledAt == nil } ?? false
  }

  func canRelease(_ id: NodeID) -> Bool { isHeld(id) && (!isSource(id) || views.contains(id)) }

  // MARK: Steps

  func addSource(_ id: NodeID, _ initial: Int) {
    nodes[id] = Node(kind: nil, inputs: [], value: initial, latest: initial)
    history[id] = [(0, initial)]
    order.append(id)
    domainParent[id] = id
    domainCounts[id] = DomainCounts()
  }

  /// The root of `id`'s domain.
  func domain(_ id: NodeID) -> NodeID {
    var root = id
    while let parent = domainParent[root], parent != root { root = parent }
    return root
  }

  /// Merges the domains of `ids` into one (counters summed) and returns its root.
  private func mergeDomains(_ ids: [NodeID]) -> NodeID {
    let roots = ids.map(domain)
    let survivor = roots[0]
    for root in roots.dropFirst() where root != survivor && domainParent[root] == root {
      domainParent[root] = survivor
      domainCounts[survivor]!.writes += domainCounts[root]!.writes
      domainCounts[survivor]!.unsettled += domainCounts[root]!.unsettled
      domainCounts[root] = nil
    }
    return survivor
  }

  /// A new derived node: computed from the newest values, then (inside a batch, where writes
  /// are still on their way) refreshed from the delivered ones, as the engine attaches it.
  func derive(_ id: NodeID, _ kind: NodeKind, _ inputs: [NodeID]) {
    let initial = kind.evaluate(inputs.map(latestValue), previous: nil)!
    var value = initial
    if isInBatch {
      value = kind.evaluate(inputs.map { nodes[$0]!.value }, previous: initial) ?? initial
    }
    if !isInBatch && pending.isEmpty { creationReads = [] }
    if isInBatch || !pending.isEmpty {
      let reads = kind.formula?.reads(latestValue) ?? inputs
      creationReads.append(contentsOf: reads.map { (id, $0) })
    }
    nodes[id] = Node(kind: kind, inputs: inputs, value: value, latest: value)
    order.append(id)
    if kind.formula?.reads({ _ in 0 }).isEmpty == true {
      // A computed property that reads nothing: a constant, in a domain of its own.
      domainParent[id] = id
      domainCounts[id] = DomainCounts()
    } else {
      domainParent[id] = mergeDomains(inputs)
    }
  }

  /// A write at logical time `key`: stored at once; delivered as an event of its own, or with
  /// the enclosing batch.
  func write(_ id: NodeID, _ value: Int, at key: Int) {
    // Setting a view's property to the value it holds does nothing.
    if views.contains(id), nodes[id]!.latest == value { return }
    if key > nodes[id]!.latestTime {
      nodes[id]!.latest = value
      nodes[id]!.latestTime = key
    }
    history[id]!.append((key, value))
    let root = domain(id)
    domainCounts[root]!.writes += 1
    nodes[id]!.writeSeq += 1
    if isInBatch {
      if !batchTouched.contains(id) {
        batchTouched.append(id)
        domainCounts[root]!.unsettled += 1
      }
    } else {
      pending.append(Event(key: key, writes: [(id, value, nodes[id]!.writeSeq)]))
      domainCounts[root]!.unsettled += 1
    }
  }

  func beginBatch() { batchDepth += 1 }

  /// Ends a batch at logical time `key`; the outermost one queues one event with the newest
  /// value of every source written inside it.
  func endBatch(at key: Int) {
    batchDepth -= 1
    guard batchDepth == 0, !batchTouched.isEmpty else { return }
    pending.append(
      Event(
        key: key, writes: batchTouched.map { ($0, nodes[$0]!.latest, nodes[$0]!.writeSeq) }))
    batchTouched = []
  }

  /// Subscribes at logical time `key`; returns the call made at once, if any.
  func subscribe(
    _ sink: SinkID, to node: NodeID, emitsCurrentValue: Bool, _ behavior: SinkBehavior, at key: Int
  ) -> ExpectedCall? {
    sinks[sink] = Sink(node: node, script: SinkScript(behavior), subscribedAt: key)
    sinksByNode[node, default: []].append(sink)
    // Rule 11: while writes wait for delivery, a new subscriber starts from the newest value.
    let counts = domainCounts[domain(node)]!
    var first = nodes[node]!.value
    if counts.unsettled > 0 {
      first = latestValue(node)
      var sources = upstreamSources(of: node)
      var foreign: [(source: NodeID, seq: Int)] = []
      var foreignDerived: [(node: NodeID, changes: Int)] = []
      if emitsCurrentValue && nodes[node]!.kind != nil {
        // The first value reads through the branches the newest writes select: the sources
        // it reads beyond the links count too, those of the engine's domain of the node (what
        // attached links join to it). A derived node of another domain that delivered every
        // write it holds is read as delivered, not computed: it stands for its sources.
        let joined = linkedComponent(of: node)
        let reads = firstValueReads(of: node, joined: joined)
        for source in reads.sources where !sources.contains(source) {
          if joined.contains(source) {
            sources.append(source)
          } else {
            foreign.append((source, nodes[source]!.writeSeq))
          }
        }
        foreignDerived = reads.derived.map { ($0, nodes[$0]!.changes) }
      }
      let upstream = sources.map { ($0, nodes[$0]!.writeSeq) }
      if upstream.contains(where: { nodes[$0.0]!.deliveredSeq != $0.1 }) {
        sinks[sink]!.catchingUp = CatchUp(
          upstream: upstream, foreign: foreign, foreignDerived: foreignDerived)
      }
    }
    guard emitsCurrentValue else { return nil }
    return ExpectedCall(sink: sink, node: node, value: first, rank: sinksByNode[node]!.count - 1)
  }

  func cancel(_ sink: SinkID, at key: Int) {
    guard sinks[sink]?.cancelledAt == nil else { return }
    sinks[sink]!.cancelledAt = key
  }

  /// A view whose property starts at `initial`.
  func addView(_ id: NodeID, _ initial: Int) {
    addSource(id, initial)
    views.insert(id)
  }

  /// Lets go of a derived node, or of a view at logical time `key`, which ends its binding
  /// (the view holds the binding's token, as a view keeps its subscriptions).
  func release(_ id: NodeID, at key: Int) {
    nodes[id]!.isHeld = false
    guard views.contains(id) else { return }
    for (sink, state) in sinks where state.cancelledAt == nil && state.binds(id) {
      cancel(sink, at: key)
    }
  }

  /// What `sink` does on seeing `value`.
  func react(_ sink: SinkID, to value: Int) -> [SinkAction] {
    if case .forward(let target) = sinks[sink]!.behavior, views.contains(target),
      nodes[target]!.latest == value
    {
      return []
    }
    return sinks[sink]!.script.react(to: value)
  }

  // MARK: Delivery

  /// The oldest queued event.
  func popEvent() -> Event? {
    guard let index = pending.indices.min(by: { pending[$0].key < pending[$1].key }) else {
      // Quiet: the engine splits what only the writes on their way held joined.
      if !isInBatch { creationReads = [] }
      return nil
    }
    return pending.remove(at: index)
  }

  /// Delivers `event`: updates every value it affects and returns the calls it causes.
  func deliver(_ event: Event) -> [ExpectedCall] {
    let before = nodes
    var changed: [NodeID] = []
    var isChanged = Set<NodeID>()
    for (source, value, seq) in event.writes {
      nodes[source]!.value = value
      nodes[source]!.deliveredSeq = seq
      if isChanged.insert(source).inserted { changed.append(source) }
      domainCounts[domain(source)]!.unsettled -= 1
    }
    for id in order {
      let node = nodes[id]!
      guard let kind = node.kind, affected(kind, node.inputs, isChanged, before) else { continue }
      if let formula = kind.formula,
        formula.reads({ before[$0]!.value }) != formula.reads({ nodes[$0]!.value })
      {
        relinks += 1
      }
      guard let value = kind.evaluate(node.inputs.map { nodes[$0]!.value }, previous: node.value)
      else { continue }
      nodes[id]!.value = value
      nodes[id]!.latest = value
      nodes[id]!.changes += 1
      isChanged.insert(id)
      changed.append(id)
    }
    var calls: [ExpectedCall] = []
    for id in changed {
      for (rank, sink) in (sinksByNode[id] ?? []).enumerated() {
        let state = sinks[sink]!
        guard state.subscribedAt < event.key, (state.cancelledAt ?? .max) > event.key else {
          continue
        }
        if let record = state.catchingUp {
          // Nothing newer than the value it started from yet, or exactly it: skip.
          let caughtUp = isCaughtUp(record, node: id)
          let same =
            record.upstream.allSatisfy { nodes[$0.source]!.deliveredSeq == $0.seq }
            && record.foreign.allSatisfy { nodes[$0.source]!.writeSeq == $0.seq }
            && record.foreignDerived.allSatisfy { nodes[$0.node]!.changes == $0.changes }
          if caughtUp { sinks[sink]!.catchingUp = nil }
          if !caughtUp || same { continue }
        }
        calls.append(ExpectedCall(sink: sink, node: id, value: nodes[id]!.value, rank: rank))
      }
    }
    // A record is dropped once its sources delivered what it waits for, whether or not the
    // node changed then: a later change is newer than the sink's first value.
    for (sink, state) in sinks {
      if let record = state.catchingUp, isCaughtUp(record, node: state.node) {
        sinks[sink]!.catchingUp = nil
      }
    }
    return calls
  }

  /// Whether every source `record` waits for has delivered the write it waits for: those
  /// upstream, and those of other domains that links now join to `node`.
  private func isCaughtUp(_ record: CatchUp, node: NodeID) -> Bool {
    guard record.upstream.allSatisfy({ nodes[$0.source]!.deliveredSeq >= $0.seq }) else {
      return false
    }
    guard !record.foreign.isEmpty else { return true }
    let joined = linkedComponent(of: node)
    return record.foreign.allSatisfy {
      !joined.contains($0.source) || nodes[$0.source]!.deliveredSeq >= $0.seq
    }
  }

  /// Whether a derived node is recomputed in an event that changed `changed`: when one of its
  /// inputs changed, where a `switchLatest` only listens to its selector and to the input it
  /// follows (before or after the switch).
  private func affected(
    _ kind: NodeKind, _ inputs: [NodeID], _ changed: Set<NodeID>, _ before: [NodeID: Node]
  ) -> Bool {
    guard kind.isDynamic else { return inputs.contains(where: changed.contains) }
    let selector = inputs[0]
    let old = NodeKind.selected(by: before[selector]!.value, amongInputs: inputs.count)
    let new = NodeKind.selected(by: nodes[selector]!.value, amongInputs: inputs.count)
    return changed.contains(selector) || changed.contains(inputs[old])
      || changed.contains(inputs[new])
  }

  /// The sources a node is computed from now, as the engine's edges say: every input, except
  /// that a `switchLatest` follows its selector and the input its delivered value selects.
  func upstreamSources(of id: NodeID) -> [NodeID] { sources(of: id) { nodes[$0]!.value } }

  /// The nodes that attached links join to `id`, itself attached: its domain in the engine,
  /// which merges what links join (the model's `domain(_:)` merges what a node may ever read).
  /// A `switchLatest` keeps all its candidates joined to it while it lives (see
  /// `SystemUnderTest`).
  func linkedComponent(of id: NodeID) -> Set<NodeID> {
    let live = liveNodes()
    let attached = observedNodes(live: live)
    var neighbours: [NodeID: [NodeID]] = [:]
    let links = attached.flatMap { node in reads(of: node) { nodes[$0]!.value }.map { (node, $0) } }
    let candidates = live.filter { nodes[$0]!.kind?.isDynamic == true }.flatMap { node in
      nodes[node]!.inputs.map { (node, $0) }
    }
    for (node, input) in links + candidates + creationReads {
      neighbours[node, default: []].append(input)
      neighbours[input, default: []].append(node)
    }
    var found: Set<NodeID> = []
    var work = [id]
    while let next = work.popLast() {
      guard found.insert(next).inserted else { continue }
      work.append(contentsOf: neighbours[next] ?? [])
    }
    return found
  }

  /// What a new subscriber's first value, `id` computed from the newest writes (see
  /// `latestValue(_:)`), reads: through the branches the newest values select, which its links
  /// may not follow yet, down to the sources, except that a derived node outside `joined` (the
  /// engine's domain of `id`) whose own domain has delivered every write and which follows
  /// its inputs (attached) is read as its domain delivered it, not computed (`derived`).
  func firstValueReads(of id: NodeID, joined: Set<NodeID>) -> (
    sources: [NodeID], derived: [NodeID]
  ) {
    let attached = observedNodes(live: liveNodes())
    var sources: [NodeID] = []
    var derived: [NodeID] = []
    var work = [id]
    var seen: Set<NodeID> = []
    while let next = work.popLast() {
      guard seen.insert(next).inserted else { continue }
      guard nodes[next]!.kind != nil else {
        sources.append(next)
        continue
      }
      if next != id, !joined.contains(next), attached.contains(next),
        linkedComponent(of: next).allSatisfy({ nodes[$0]!.writeSeq == nodes[$0]!.deliveredSeq })
      {
        derived.append(next)
        continue
      }
      work.append(contentsOf: reads(of: next, latestValue))
    }
    return (sources, derived)
  }

  /// The sources that computing `id` from the nodes' values `value` reads, transitively.
  func sources(of id: NodeID, _ value: (NodeID) -> Int) -> [NodeID] {
    var found: [NodeID] = []
    var work = [id]
    var seen: Set<NodeID> = []
    while let next = work.popLast() {
      guard seen.insert(next).inserted else { continue }
      guard nodes[next]!.kind != nil else {
        found.append(next)
        continue
      }
      work.append(contentsOf: reads(of: next, value))
    }
    return found
  }

  /// What computing `id` from the nodes' values `value` reads: its inputs; a `switchLatest`'s
  /// selector and the input the selector's value picks; what a computed property's formula
  /// reads (from the delivered values: what the node is linked to once attached).
  func reads(of id: NodeID, _ value: (NodeID) -> Int) -> [NodeID] {
    let node = nodes[id]!
    guard let kind = node.kind else { return [] }
    if kind.isDynamic {
      let selected = NodeKind.selected(by: value(node.inputs[0]), amongInputs: node.inputs.count)
      return [node.inputs[0], node.inputs[selected]]
    }
    if let formula = kind.formula { return formula.reads(value) }
    return node.inputs
  }

  // MARK: Reading

  /// What reading the node gives now: its delivered value once everything is delivered, and
  /// inside a batch the value pulled from the newest writes (a node that holds back a value
  /// keeps its delivered one).
  func latestValue(_ id: NodeID) -> Int {
    let node = nodes[id]!
    guard let kind = node.kind else { return node.latest }
    if kind.isDynamic {
      let selected = NodeKind.selected(
        by: latestValue(node.inputs[0]), amongInputs: node.inputs.count)
      return latestValue(node.inputs[selected])
    }
    if let formula = kind.formula { return formula.evaluate(latestValue) }
    return kind.evaluate(node.inputs.map(latestValue), previous: node.value) ?? node.value
  }

  /// What reading `id` at logical time `time` gave, from the sources' values then (the newest
  /// write before `time` of each), for a node whose value is a function of its sources' values
  /// alone; `nil` for one with a `filter` upstream, whose value depends on the history.
  ///
  /// Only exact once every write made before `time` is known to the model (after the step's
  /// events are all replayed).
  func value(of id: NodeID, at time: Int) -> Int? {
    let node = nodes[id]!
    guard let kind = node.kind else {
      return history[id]!.filter { $0.time < time }.max { $0.time < $1.time }!.value
    }
    switch kind {
    case .filter:
      return nil
    case .switchLatest:
      guard let selector = value(of: node.inputs[0], at: time) else { return nil }
      return value(
        of: node.inputs[NodeKind.selected(by: selector, amongInputs: node.inputs.count)],
        at: time)
    case .computed(let formula):
      var isPure = true
      let result = formula.evaluate { read in
        guard isPure, let value = value(of: read, at: time) else {
          isPure = false
          return 0
        }
        return value
      }
      return isPure ? result : nil
    case .map, .combine, .removeDuplicates:
      let values = node.inputs.compactMap { value(of: $0, at: time) }
      guard values.count == node.inputs.count else { return nil }
      // A removeDuplicates holds back repeats, which leaves its value its input's.
      return kind == .removeDuplicates ? values[0] : kind.evaluate(values, previous: nil)
    }
  }

  // MARK: Lifetimes

  /// The nodes that must still exist: sources, nodes the program holds or subscribes to, the
  /// nodes those are computed from, the inputs a `switchLatest` may switch to (its
  /// transform keeps them, as a `flatMapLatest` closure keeps the properties it returns), and
  /// every property a computed property's closure reads in some branch (it captures them).
  func liveNodes() -> Set<NodeID> {
    var attached = Set(nodes.filter { $0.value.isHeld }.keys)
    for sink in sinks.values where sink.cancelledAt == nil { attached.insert(sink.node) }
    var live = attached
    while true {
      let count = (attached.count, live.count)
      for id in attached {
        let node = nodes[id]!
        guard let kind = node.kind else { continue }
        // Attached nodes keep their inputs attached; a switchLatest its selector.
        attached.formUnion(kind.isDynamic ? [node.inputs[0]] : node.inputs)
      }
      live.formUnion(attached)
      for id in live {
        let node = nodes[id]!
        live.formUnion(node.inputs)
        if node.kind?.isDynamic == true { attached.formUnion(node.inputs.dropFirst()) }
        // A computed property's closure keeps every property it reads (captured handles).
        if node.kind?.formula != nil { attached.formUnion(node.inputs) }
      }
      if (attached.count, live.count) == count { return live }
    }
  }
}

extension ReferenceModel {
  /// The nodes linked into the graph (attached), given the nodes still alive: what a sink
  /// observes, what a handle keeps attached (a handle on a computed property keeps nothing:
  /// unobserved, it is suspended), and what an attached node currently reads, transitively.
  ///
  /// Handles are the program's, those a computed property's closure captures (every property
  /// it mentions), and those a `switchLatest`'s transform captures (its candidates). An
  /// attached node reads its inputs; a `switchLatest` its selector and the input its delivered
  /// selector picks; a computed property what a run on the delivered values reads.
  func observedNodes(live: Set<NodeID>) -> Set<NodeID> {
    var handles = Set(nodes.keys.filter(isHeld))
    for id in live {
      guard let kind = nodes[id]!.kind else { continue }
      if kind.formula != nil { handles.formUnion(nodes[id]!.inputs) }
      if kind.isDynamic { handles.formUnion(nodes[id]!.inputs.dropFirst()) }
    }
    var work = handles.filter { nodes[$0]!.kind?.formula == nil }
    work.formUnion(sinks.values.filter { $0.cancelledAt == nil }.map(\.node))
    var attached: Set<NodeID> = []
    while let id = work.popFirst() {
      guard attached.insert(id).inserted else { continue }
      let node = nodes[id]!
      guard let kind = node.kind else { continue }
      if kind.isDynamic {
        let selected = NodeKind.selected(
          by: nodes[node.inputs[0]]!.value, amongInputs: node.inputs.count)
        work.formUnion([node.inputs[0], node.inputs[selected]])
      } else if let formula = kind.formula {
        work.formUnion(formula.reads { nodes[$0]!.value })
      } else {
        work.formUnion(node.inputs)
      }
    }
    return attached
  }
}

extension ReferenceModel.Sink {
  var behavior: SinkBehavior { script.behavior }

  /// Whether this is a live binding into `target`.
  func binds(_ target: NodeID) -> Bool {
    guard cancelledAt == nil, case .forward(let into) = behavior else { return false }
    return into == target
  }
}
