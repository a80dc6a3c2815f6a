extension Tracer {
  /// The dependency graph this tracer saw, in Graphviz's DOT language, with the last traced
  /// change highlighted.
  ///
  /// ```swift
  /// let dot = tracer.graphviz()
  /// // dot -Tsvg graph.dot -o graph.svg
  /// ```
  ///
  /// The graph reads left to right, from what is written to what is redrawn:
  ///
  /// - **Sources** (relays, `@ReadWrite` state, a view property's `$name`): filled boxes.
  /// - **Derived values** (`map`, `combineLatest`, ...) and **computed properties**
  ///   (`Property { }`, dashed): ellipses, an arrow from each input.
  /// - **Sinks**: a point for each property's subscriptions not seen doing anything traced.
  /// - **Views and other invalidatable objects**: a box each, holding the properties that
  ///   were set (notes), the invalidations requested (diamonds) and the passes that ran
  ///   (3D boxes); an arrow labelled `reads` goes from each property a tracked pass read to
  ///   the request it made.
  ///
  /// Every property met in a record is drawn with everything connected to it (its inputs and
  /// what is derived from it, as the graph stands now). The last record's change, from its
  /// writes (small red labels with the place of each write) to every record they caused, is
  /// drawn red. Render it with `dot -Tsvg`.
  ///
  /// - Parameter title: A title to print above the graph.
  /// - Returns: The graph, in DOT.
  public func graphviz(title: String? = nil) -> String {
    TraceGraph(records: records).dot(title: title)
  }
}

/// The drawing behind `Tracer.graphviz()`: the graph's elements, gathered from the records'
/// links and the engine's edges.
struct TraceGraph {
  /// A thing drawn: a property, or a part of an object (a property set, an invalidation, a
  /// pass), or a point standing for sinks.
  private struct Element {
    var id: String
    var label: String
    var attributes: String
    /// The object whose box holds the element, if any.
    var object: TracedObject?
  }

  private struct Edge: Hashable {
    var from: String
    var to: String
    var label: String
  }

  private var elements: [String: Element] = [:]
  private var order: [String] = []
  private var edges: [Edge: Bool] = [:]
  private var edgeOrder: [Edge] = []
  private var highlighted: Set<String> = []
  private var objects: [ObjectIdentifier: TracedObject] = [:]
  /// The tracked-pass watchers, by node, and the element of the request each made.
  private var watcherRequests: [ObjectIdentifier: String] = [:]

  init(records: [TraceRecord]) {
    let links = Self.links(of: records)
    let last = Self.lastChange(of: records)
    for link in links {
      guard case .invalidation = link.step else { continue }
      for parent in link.parents {
        if case .change(let node) = parent.step, node.isHidden {
          watcherRequests[node.id] = Self.elementID(of: link)
        }
      }
    }
    for link in links { add(link, highlight: last.contains(ObjectIdentifier(link))) }
    for link in links { connect(link, highlight: last.contains(ObjectIdentifier(link))) }
    addNeighbourhood(of: links)
  }

  // MARK: Gathering

  /// Every link of every record, each once, in record order.
  private static func links(of records: [TraceRecord]) -> [Cause] {
    var seen: Set<ObjectIdentifier> = []
    var result: [Cause] = []
    for record in records {
      for link in record.cause.allLinks().reversed()
      where seen.insert(ObjectIdentifier(link)).inserted {
        result.append(link)
      }
    }
    return result
  }

  /// The links of the last record's change: of every record that reaches one of the writes
  /// the last record reaches, or another write of their batches.
  private static func lastChange(of records: [TraceRecord]) -> Set<ObjectIdentifier> {
    guard let last = records.last else { return [] }
    let lastLinks = last.cause.allLinks()
    let batches = Set(
      lastLinks.compactMap { link -> Int? in
        switch link.step {
        case .write(_, _, let batch), .set(_, _, _, let batch): batch
        default: nil
        }
      })
    var roots = Set(lastLinks.filter(\.parents.isEmpty).map(ObjectIdentifier.init))
    if !batches.isEmpty {
      for record in records {
        for link in record.cause.allLinks() {
          switch link.step {
          case .write(_, _, let batch?) where batches.contains(batch),
            .set(_, _, _, let batch?) where batches.contains(batch) && link.parents.isEmpty:
            roots.insert(ObjectIdentifier(link))
          default: break
          }
        }
      }
    }
    var result: Set<ObjectIdentifier> = []
    for record in records {
      let links = record.cause.allLinks()
      guard links.contains(where: { roots.contains(ObjectIdentifier($0)) }) else { continue }
      // Only the links that lead to those writes: a pass also caused by older changes keeps
      // their chains unhighlighted.
      var leadsToRoot: [ObjectIdentifier: Bool] = [:]
      func leads(_ link: Cause) -> Bool {
        let id = ObjectIdentifier(link)
        if let known = leadsToRoot[id] { return known }
        let value = roots.contains(id) || link.parents.contains(where: leads)
        leadsToRoot[id] = value
        return value
      }
      for link in links where leads(link) { result.insert(ObjectIdentifier(link)) }
    }
    return result
  }

  private static func nodeID(_ id: ObjectIdentifier) -> String {
    "n\(UInt(bitPattern: id.hashValue))"
  }

  private static func objectPartID(_ object: TracedObject, _ part: String) -> String {
    "o\(UInt(bitPattern: object.id.hashValue))." + part
  }

  /// The element a link stands for, or `nil` for a link drawn as its parents (a group, a
  /// pass's read watcher).
  private static func elementID(of link: Cause) -> String {
    switch link.step {
    case .write(let node, _, _), .change(let node), .untraced(let node): nodeID(node.id)
    case .set(let object, let property, _, _): objectPartID(object, "set." + property)
    case .invalidation(let object, let kind, _): objectPartID(object, "invalidate." + kind)
    case .pass(let object, let name): objectPartID(object, "pass." + name)
    case .request(let object, let call): objectPartID(object, "call." + call)
    case .group, .truncated: ""
    }
  }

  private mutating func add(_ link: Cause, highlight: Bool) {
    switch link.step {
    case .write(let node, let site, let batch):
      addNode(node, highlight: highlight)
      if highlight, let site {
        let id = "w\(UInt(bitPattern: ObjectIdentifier(link).hashValue))"
        let place = "written at \(site.description)" + (batch.map { ", batch \($0)" } ?? "")
        addElement(
          Element(
            id: id, label: place,
            attributes: "shape=plaintext, fontsize=10, fontcolor=\"#dc2626\"", object: nil),
          highlight: false)
        addEdge(from: id, to: Self.nodeID(node.id), label: "", highlight: true)
      }
    case .change(let node), .untraced(let node):
      if !node.isHidden { addNode(node, highlight: highlight) }
    case .set(let object, let property, _, _):
      addPart(object, Self.elementID(of: link), property, shape: "note", highlight: highlight)
    case .invalidation(let object, let kind, _):
      addPart(object, Self.elementID(of: link), kind, shape: "diamond", highlight: highlight)
    case .pass(let object, let name):
      addPart(object, Self.elementID(of: link), name, shape: "box3d", highlight: highlight)
    case .request(let object, let call):
      addPart(object, Self.elementID(of: link), call, shape: "cds", highlight: highlight)
    case .group, .truncated:
      break
    }
  }

  /// Draws an arrow from each parent's element to the link's, through groups and watchers.
  private mutating func connect(_ link: Cause, highlight: Bool) {
    let target = Self.elementID(of: link)
    guard !target.isEmpty, !link.isHidden else { return }
    var work: [(link: Cause, label: String)] = link.parents.map { ($0, "") }
    var seen: Set<ObjectIdentifier> = []
    while let (parent, label) = work.popLast() {
      guard seen.insert(ObjectIdentifier(parent)).inserted else { continue }
      if parent.isHidden {
        let reads = if case .change = parent.step { "reads" } else { label }
        work.append(contentsOf: parent.parents.map { ($0, reads) })
        continue
      }
      let edgeLabel: String
      switch (parent.step, link.step) {
      case (.change, .set), (.write, .set), (.untraced, .set): edgeLabel = "sink sets"
      case (_, .write): edgeLabel = "writes"
      default: edgeLabel = label
      }
      addEdge(from: Self.elementID(of: parent), to: target, label: edgeLabel, highlight: highlight)
    }
  }

  /// Adds what is connected to the properties met: their inputs and what is derived from
  /// them, as the graph stands now, and a point for sinks not seen at work.
  private mutating func addNeighbourhood(of links: [Cause]) {
    var work: [AnyNode] = []
    var visited: Set<ObjectIdentifier> = []
    for link in links {
      switch link.step {
      case .write(let node, _, _), .change(let node), .untraced(let node):
        if let live = node.node { work.append(live) }
      default: break
      }
    }
    let state = TraceState.shared
    var edgesSeen: Set<String> = []
    while let node = work.popLast(), visited.count < 400 {
      let id = ObjectIdentifier(node)
      guard visited.insert(id).inserted else { continue }
      let (inputs, downstream, sinkCount) = node.withRootLocked { root in
        let neighbours = (node.inputs, node.downstream, node.liveSinkCount)
        root.lock.unlock()
        return neighbours
      }
      let traced = state.tracedNode(node)
      let nodeElement = traced.isHidden ? watcherRequests[id] : Self.nodeID(id)
      if !traced.isHidden { addNode(traced, highlight: false) }
      if let nodeElement {
        for input in inputs {
          let key = "\(ObjectIdentifier(input))>\(id)"
          guard edgesSeen.insert(key).inserted else { continue }
          let inputTraced = state.tracedNode(input)
          guard !inputTraced.isHidden else { continue }
          addNode(inputTraced, highlight: false)
          addEdge(
            from: Self.nodeID(ObjectIdentifier(input)), to: nodeElement,
            label: traced.isHidden ? "reads" : "", highlight: false)
        }
      }
      work.append(contentsOf: inputs)
      work.append(contentsOf: downstream)
      // A sink seen at work is drawn as what it did: an arrow to a view or to a relay.
      let seenSinks = edgeOrder.filter { edge in
        edge.from == Self.nodeID(id)
          && (edge.label == "writes" || elements[edge.to]?.object != nil)
      }.count
      let unseenSinks = sinkCount - seenSinks
      if !traced.isHidden, unseenSinks > 0 {
        let sinkID = "s" + Self.nodeID(id)
        let label = unseenSinks == 1 ? "sink" : "\(unseenSinks) sinks"
        addElement(
          Element(
            id: sinkID, label: "",
            attributes: "shape=point, width=0.1, color=\"#64748b\", xlabel=\(Self.quoted(label)), "
              + "fontsize=9, fontcolor=\"#64748b\"",
            object: nil),
          highlight: false)
        addEdge(from: Self.nodeID(id), to: sinkID, label: "", highlight: false)
      }
    }
  }

  // MARK: Elements

  private mutating func addNode(_ node: TracedNode, highlight: Bool) {
    let origin = node.origin
    var label = node.name
    if let origin {
      let kind = origin.kind.description
      let made = [kind == node.name ? nil : kind, origin.site].compactMap { $0 }
      if origin.name != nil || !node.name.hasSuffix(")"), !made.isEmpty {
        label += "\n" + made.joined(separator: " · ")
      }
    }
    let attributes: String
    if node.isSource {
      attributes = "shape=box, style=\"rounded,filled\", fillcolor=\"#dbeafe\""
    } else if origin?.isComputedProperty == true {
      attributes = "shape=ellipse, style=\"dashed,filled\", fillcolor=\"#f1f5f9\""
    } else {
      attributes = "shape=ellipse, style=filled, fillcolor=\"#f1f5f9\""
    }
    addElement(
      Element(id: Self.nodeID(node.id), label: label, attributes: attributes, object: nil),
      highlight: highlight)
  }

  private mutating func addPart(
    _ object: TracedObject, _ id: String, _ label: String, shape: String, highlight: Bool
  ) {
    objects[object.id] = object
    addElement(
      Element(
        id: id, label: label,
        attributes: "shape=\(shape), style=filled, fillcolor=\"#fffbeb\", fontsize=11",
        object: object),
      highlight: highlight)
  }

  private mutating func addElement(_ element: Element, highlight: Bool) {
    if elements[element.id] == nil {
      elements[element.id] = element
      order.append(element.id)
    }
    if highlight { highlighted.insert(element.id) }
  }

  private mutating func addEdge(from: String, to: String, label: String, highlight: Bool) {
    guard !from.isEmpty, !to.isEmpty, from != to else { return }
    let edge = Edge(from: from, to: to, label: label)
    if let known = edges[edge] {
      edges[edge] = known || highlight
    } else {
      edges[edge] = highlight
      edgeOrder.append(edge)
    }
  }

  // MARK: Writing

  func dot(title: String?) -> String {
    // Identifiers numbered in drawing order, so that the same run draws the same text.
    var numbers: [String: String] = [:]
    for (index, id) in order.enumerated() { numbers[id] = "n\(index + 1)" }
    func name(_ id: String) -> String { Self.quoted(numbers[id] ?? id) }
    var lines = [
      "digraph invalidating {",
      "  rankdir=LR;",
      "  node [fontname=\"Helvetica\", fontsize=12, color=\"#475569\"];",
      "  edge [fontname=\"Helvetica\", fontsize=10, color=\"#64748b\", fontcolor=\"#475569\"];",
    ]
    if let title {
      lines.append("  labelloc=t; fontname=\"Helvetica\"; label=\(Self.quoted(title));")
    }
    let red = "color=\"#dc2626\", fontcolor=\"#dc2626\", penwidth=2.4"
    // A part of an object with no arrow (a pass no traced request asked for) says nothing.
    var connected: Set<String> = []
    for edge in edgeOrder {
      connected.insert(edge.from)
      connected.insert(edge.to)
    }
    func line(_ element: Element, indent: String) -> String {
      let extra = highlighted.contains(element.id) ? ", " + red : ""
      return "\(indent)\(name(element.id)) [label=\(Self.quoted(element.label)), "
        + element.attributes + extra + "];"
    }
    for id in order {
      guard let element = elements[id], element.object == nil else { continue }
      lines.append(line(element, indent: "  "))
    }
    for (index, object) in objects.values.sorted(by: { $0.name < $1.name }).enumerated() {
      lines.append("  subgraph cluster_\(index) {")
      lines.append(
        "    label=\(Self.quoted(object.name)); style=\"rounded,filled\"; "
          + "fillcolor=\"#fef3c7\"; color=\"#b45309\"; fontname=\"Helvetica-Bold\";")
      for id in order {
        guard let element = elements[id], element.object?.id == object.id,
          connected.contains(id)
        else { continue }
        lines.append(line(element, indent: "    "))
      }
      lines.append("  }")
    }
    for edge in edgeOrder {
      guard elements[edge.from] != nil, elements[edge.to] != nil else { continue }
      var attributes: [String] = []
      if !edge.label.isEmpty { attributes.append("label=\(Self.quoted(edge.label))") }
      if edges[edge] == true { attributes.append(red) }
      let suffix = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
      lines.append("  \(name(edge.from)) -> \(name(edge.to))\(suffix);")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` as a DOT string: quoted, with quotes and backslashes escaped and line breaks as
  /// `\n`.
  private static func quoted(_ text: String) -> String {
    var result = "\""
    for character in text {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      default: result.append(character)
      }
    }
    return result + "\""
  }
}
