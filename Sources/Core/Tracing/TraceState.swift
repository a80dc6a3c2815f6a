#if !canImport(Darwin)
  import Synchronization
#endif

/// What tracing keeps between the hooks: the tracers recording, the causes of writes not yet
/// delivered, and the names of the nodes seen. (The causes of the passes not yet run are kept
/// by the views' `InvalidationTracker`s.)
///
/// Lock order: a domain's lock may be held when this one is taken (`noteWrite`), never the
/// other way round, so nothing here reads a node's fields that need its lock while holding
/// `lock`.
final class TraceState: @unchecked Sendable {
  // Safe: every mutable field is only touched while `lock` is held.
  static let shared = TraceState()

  private let lock = Lock()
  private var tracers: [Tracer] = []
  /// Nodes whose changes a tracer records (``TraceFilter/property(_:)``), with how many do.
  private var watched: [ObjectIdentifier: Int] = [:]
  private var pendingWrites: [ObjectIdentifier: [(seq: UInt64, cause: Cause)]] = [:]
  private var nodes: [ObjectIdentifier: TracedNode] = [:]
  private var nodesPruned = 0
  /// The names of invalidating properties, by their declaration's origin (shared by every
  /// instance, and never freed: the table of origins keeps it).
  private var propertyNames: [ObjectIdentifier: String] = [:]
  /// Types' names, and the names of invalidations by their type: what `String(describing:)`
  /// gives, computed once (it looks up conformances on every call).
  private var typeNames: [ObjectIdentifier: String] = [:]
  private var kindNames: [ObjectIdentifier: String] = [:]
  private var lastBatch = 0
  private var lastRecord = 0

  // MARK: Tracers

  func start(_ tracer: Tracer) {
    lock.lock()
    defer { lock.unlock() }
    guard !tracers.contains(where: { $0 === tracer }) else { return }
    tracers.append(tracer)
    if let node = tracer.filter.watchedNode { watched[node, default: 0] += 1 }
    #if canImport(Darwin)
      recordingTracers = tracers.count
    #else
      recordingTracers.store(tracers.count, ordering: .relaxed)
    #endif
  }

  func stop(_ tracer: Tracer) {
    lock.lock()
    guard let index = tracers.firstIndex(where: { $0 === tracer }) else {
      lock.unlock()
      return
    }
    tracers.remove(at: index)
    if let node = tracer.filter.watchedNode {
      watched[node, default: 1] -= 1
      if watched[node] == 0 { watched[node] = nil }
    }
    #if canImport(Darwin)
      recordingTracers = tracers.count
    #else
      recordingTracers.store(tracers.count, ordering: .relaxed)
    #endif
    // With nobody recording, what waits for a traced delivery would never be asked for.
    var released: [Any] = []
    if tracers.isEmpty {
      released = [pendingWrites, nodes]
      pendingWrites = [:]
      nodes = [:]
    }
    lock.unlock()
    released.removeAll()
  }

  func isWatched(_ node: ObjectIdentifier) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return watched[node] != nil
  }

  /// The nodes tracers follow (a copy, taken once per traced delivery).
  func watchedNodes() -> Set<ObjectIdentifier> {
    lock.lock()
    defer { lock.unlock() }
    return watched.isEmpty ? [] : Set(watched.keys)
  }

  // MARK: Records

  /// Makes a record and hands it to every tracer whose filter takes it.
  func record(event: TraceRecord.Event, subject: String, subjectID: ObjectIdentifier, cause: Cause)
  {
    lock.lock()
    lastRecord += 1
    let record = TraceRecord(
      number: lastRecord, event: event, subject: subject, subjectID: subjectID, cause: cause)
    let recipients = tracers
    lock.unlock()
    for tracer in recipients where tracer.filter.accepts(record) { tracer.receive(record) }
  }

  func nextBatch() -> Int {
    lock.lock()
    defer { lock.unlock() }
    lastBatch += 1
    return lastBatch
  }

  // MARK: Writes and passes

  func noteWrite(_ cause: Cause, of node: AnyNode, seq: UInt64) {
    lock.lock()
    pendingWrites[ObjectIdentifier(node), default: []].append((seq, cause))
    lock.unlock()
  }

  /// The causes of `node`'s writes numbered up to `seq`, which a delivery is taking: a batch
  /// coalesces several writes of one source into one.
  func takeWrites(of node: AnyNode, upTo seq: UInt64) -> [Cause] {
    lock.lock()
    defer { lock.unlock() }
    let id = ObjectIdentifier(node)
    guard var writes = pendingWrites[id] else { return [] }
    let taken = writes.prefix { $0.seq <= seq }.map(\.cause)
    writes.removeFirst(taken.count)
    pendingWrites[id] = writes.isEmpty ? nil : writes
    return taken
  }

  // MARK: Names

  /// Forgets the names given to nodes: a node was named, and what is derived from it is
  /// called after it.
  func forgetNodeNames() {
    lock.lock()
    let forgotten = nodes
    nodes = [:]
    lock.unlock()
    withExtendedLifetime(forgotten) {}
  }

  func typeName(of type: Any.Type) -> String {
    cachedName(of: type, in: \.typeNames) { String(describing: type) }
  }

  func kindName(of type: Any.Type) -> String {
    cachedName(of: type, in: \.kindNames) {
      let typeName = typeName(of: type)
      return typeName.first.map { $0.lowercased() + typeName.dropFirst() } ?? typeName
    }
  }

  /// The name of `type` kept in `table`, made by `make` (outside the lock) the first time.
  private func cachedName(
    of type: Any.Type, in table: ReferenceWritableKeyPath<TraceState, [ObjectIdentifier: String]>,
    _ make: () -> String
  ) -> String {
    let id = ObjectIdentifier(type)
    lock.lock()
    if let known = self[keyPath: table][id] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let name = make()
    lock.lock()
    self[keyPath: table][id] = name
    lock.unlock()
    return name
  }

  func propertyName(declaredAt origin: NodeOrigin) -> String? {
    lock.lock()
    defer { lock.unlock() }
    return propertyNames[ObjectIdentifier(origin)]
  }

  func rememberPropertyName(_ name: String, declaredAt origin: NodeOrigin) {
    lock.lock()
    propertyNames[ObjectIdentifier(origin)] = name
    lock.unlock()
  }

  /// The node as traces show it, made once per node (and again once it is named).
  func tracedNode(_ node: AnyNode) -> TracedNode {
    let id = ObjectIdentifier(node)
    let origin = node.lockedOrigin
    lock.lock()
    if let known = nodes[id], known.node === node, known.origin === origin {
      lock.unlock()
      return known
    }
    lock.unlock()
    let made = TracedNode(node, name: Self.name(of: node, origin: origin), origin: origin)
    lock.lock()
    if nodes.count > 2 * nodesPruned + 1_024 {
      nodes = nodes.filter { $0.value.node != nil }
      nodesPruned = nodes.count
    }
    nodes[id] = made
    lock.unlock()
    return made
  }

  /// What traces call `node`: its name; for a value derived from named ones, what it was
  /// derived from (`count.map`, `combineLatest(count, title)`, `count.map.removeDuplicates`);
  /// otherwise what it is and where it was made (`BehaviorRelay(File.swift:4)`,
  /// `map(File.swift:9)`). A chain of causes shows what an unnamed value came from anyway.
  static func name(of node: AnyNode, origin: NodeOrigin?) -> String {
    lineage(of: node, origin: origin, depth: 0) ?? madeAt(node, origin)
  }

  /// `kind(File.swift:12)`, or the kind alone.
  private static func madeAt(_ node: AnyNode, _ origin: NodeOrigin?) -> String {
    guard let origin else { return node.isSource ? "source" : "derived value" }
    let kind = origin.kind.description
    return origin.site.map { "\(kind)(\($0))" } ?? kind
  }

  /// The node's name, or, for a derived value all of whose inputs have one, the names of its
  /// inputs and its kind, at most three levels deep; `nil` otherwise.
  private static func lineage(of node: AnyNode, origin: NodeOrigin?, depth: Int) -> String? {
    if let name = origin?.name { return name }
    guard let origin, !node.isSource, !origin.isComputedProperty, depth < 3 else { return nil }
    var names: [String] = []
    for input in node.lockedInputs() {
      guard let name = lineage(of: input, origin: input.lockedOrigin, depth: depth + 1) else {
        return nil
      }
      names.append(name)
    }
    let kind = origin.kind.description
    switch names.count {
    case 0: return nil
    case 1: return "\(names[0]).\(kind)"
    default: return "\(kind)(\(names.joined(separator: ", ")))"
    }
  }
}
