/// One link of a trace: something that happened (a write, a derived value's change, a view
/// property's set, an invalidation, a pass) and what made it happen, its `parents`. The links
/// of a traced change form a graph from its writes to its effects; a record holds the link of
/// its own event, and every path from it to a write is one cause (one line).
///
/// Links are made only while tracing, and are immutable.
@usableFromInline
package final class Cause: Sendable {
  package enum Step: Sendable {
    /// A write of a source: `accept`, `modify`, a relay's event, a view property's `$name`.
    case write(TracedNode, site: TraceSite?, batch: Int?)
    /// A derived value or computed property that changed because its inputs did.
    case change(TracedNode)
    /// A change whose write was made while nothing traced.
    case untraced(TracedNode)
    /// Several causes of one change, such as a batch's writes to one relay: shown as each.
    case group
    /// A `@ViewInvalidating` or `@ObjectInvalidating` property set to a new value, or a view's
    /// frame resized.
    case set(TracedObject, property: String, declaredAt: TraceSite?, batch: Int?)
    /// An invalidation requested from an object.
    case invalidation(TracedObject, kind: String, deduplicated: Bool)
    /// A view pass that ran.
    case pass(TracedObject, name: String)
    /// A pass requested by a call made outside any traced change, such as `setNeedsLayout()`.
    case request(TracedObject, call: String)
    /// Causes further back than a trace keeps (see `depthLimit`).
    case truncated
  }

  package let step: Step
  package let parents: [Cause]
  /// The length of the longest path from this link back to one without parents.
  let depth: Int

  /// How long a chain of causes may grow: a cascade of writes, each made by a sink of the one
  /// before, would otherwise keep every link it ever made, and free them recursively.
  static let depthLimit = 48

  package init(_ step: Step, parents: [Cause] = []) {
    self.step = step
    let depth = 1 + parents.reduce(0) { max($0, $1.depth) }
    if depth > Self.depthLimit {
      self.parents = [Cause.truncatedLink]
      self.depth = 2
    } else {
      self.parents = parents
      self.depth = depth
    }
  }

  private init(truncated: ()) {
    step = .truncated
    parents = []
    depth = 1
  }

  /// The link that stands for what a chain no longer keeps.
  private static let truncatedLink = Cause(truncated: ())

  /// Whether the step stands for its parents only and is not shown.
  var isHidden: Bool {
    switch step {
    case .group: true
    case .change(let node): node.isHidden
    default: false
    }
  }

  /// Every path from this link's parents back to a link without parents, nearest first, at
  /// most `limit` of them; a link without parents gives one empty path.
  func pathsFromParents(limit: Int = 64) -> [[Cause]] {
    var paths: [[Cause]] = []
    var stack: [(link: Cause, path: [Cause])] = parents.reversed().map { ($0, [$0]) }
    if stack.isEmpty { return [[]] }
    while let (link, path) = stack.popLast(), paths.count < limit {
      if link.parents.isEmpty {
        paths.append(path)
        continue
      }
      for parent in link.parents.reversed() { stack.append((parent, path + [parent])) }
    }
    return paths
  }

  /// Every link reachable from this one, itself included, each once.
  func allLinks() -> [Cause] {
    var seen: Set<ObjectIdentifier> = []
    var result: [Cause] = []
    var work: [Cause] = [self]
    while let link = work.popLast() {
      guard seen.insert(ObjectIdentifier(link)).inserted else { continue }
      result.append(link)
      work.append(contentsOf: link.parents)
    }
    return result
  }
}

/// Where a write was made, or an invalidating property declared.
package struct TraceSite: Sendable, Hashable {
  package let file: StaticString
  package let line: UInt

  package init(file: StaticString, line: UInt) {
    self.file = file
    self.line = line
  }

  /// `File.swift:12`.
  package var description: String { "\(NodeOrigin.fileName(file.description)):\(line)" }

  package static func == (lhs: TraceSite, rhs: TraceSite) -> Bool {
    lhs.line == rhs.line && lhs.file.description == rhs.file.description
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(line)
    hasher.combine(file.description)
  }
}

/// A node as traces show it: its name (or what it is and where it was made), and the node
/// itself, weakly, for the graph.
package final class TracedNode: @unchecked Sendable {
  // Safe: every field is immutable except the weak reference, which the runtime reads and
  // clears atomically.
  package let id: ObjectIdentifier
  package weak var node: AnyNode?
  /// The name traces give it: its own, or `BehaviorRelay(File.swift:4)`, `count.map`, ...
  package let name: String
  /// The origin the name was made from: a node named later gets a new `TracedNode`.
  package let origin: NodeOrigin?
  package let isSource: Bool
  package let isHidden: Bool

  init(_ node: AnyNode, name: String, origin: NodeOrigin?) {
    id = ObjectIdentifier(node)
    self.node = node
    self.name = name
    self.origin = origin
    isSource = node.isSource
    isHidden = origin?.isHidden ?? false
  }
}

/// An object (a view, an invalidatable object) as traces show it: its type's name.
package struct TracedObject: Sendable, Hashable {
  package let id: ObjectIdentifier
  package let name: String

  package init(_ object: AnyObject) {
    id = ObjectIdentifier(object)
    name = TraceState.shared.typeName(of: type(of: object))
  }
}
