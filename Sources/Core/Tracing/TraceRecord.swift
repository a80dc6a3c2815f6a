/// What a ``Tracer`` recorded: an invalidation, a view pass or a property's change, and every
/// chain of causes that led to it, back to the writes that started them.
///
/// Its description has one line per cause, from the event back to the write:
///
/// ```text
/// BadgeView.layout ← BadgeView.text ← count.map ← count (written at CounterViewModel.swift:12, batch 3)
/// ```
///
/// Read it right to left: `count` was written at that line, inside the third batch traced;
/// `count.map` changed with it; a binding set the view's `text` to the new value; `text` asked
/// for layout. A record of a pass lists the invalidations that asked for it since it last ran,
/// each with its own chain.
public struct TraceRecord: Sendable, CustomStringConvertible {
  /// What happened.
  public enum Event: Sendable, Hashable {
    /// A property changed: recorded for the property a tracer follows
    /// (``TraceFilter/property(_:)``).
    case change
    /// An invalidation of the subject was requested: `kind` is what it invalidates (`layout`,
    /// `display`, `intrinsicContentSize`, the name of a custom invalidation, or the tracked
    /// pass a read asked for again). A `deduplicated` one repeated a request already made in
    /// the same batch or delivery, which the engine dropped.
    case invalidation(kind: String, deduplicated: Bool)
    /// A view pass ran: `updateProperties()`, `layoutSubviews()`, `render()` (`draw(_:)` on
    /// Apple platforms).
    case pass(String)
  }

  /// The record's place among every record made in this process, from 1.
  public let number: Int
  /// What happened.
  public let event: Event
  /// What it happened to: a view's or object's type (`BadgeView`), or a property's name.
  public let subject: String
  let subjectID: ObjectIdentifier
  /// The record's own link; its parents are the causes.
  let cause: Cause

  init(number: Int, event: Event, subject: String, subjectID: ObjectIdentifier, cause: Cause) {
    self.number = number
    self.event = event
    self.subject = subject
    self.subjectID = subjectID
    self.cause = cause
  }

  /// The chains that led to the event, one per path back to a write: several when a batch
  /// wrote several of the properties it depends on, or a pass was requested several times.
  ///
  /// A record with no traced cause (the first pass of a new view, or a change written before
  /// tracing started) has one cause whose ``TraceCause/write`` is `nil`.
  public var causes: [TraceCause] {
    var seen: Set<String> = []
    return cause.pathsFromParents().compactMap { path in
      let chain = TraceCause(record: self, path: path)
      return seen.insert(chain.description).inserted ? chain : nil
    }
  }

  /// Whether the record is about `object`: an invalidation of it, or one of its passes.
  ///
  /// - Parameter object: A view or another invalidatable object.
  /// - Returns: `true` when `object` is the record's subject.
  public func isAbout(_ object: AnyObject) -> Bool {
    subjectID == ObjectIdentifier(object)
  }

  /// One line per cause (see ``TraceCause/description``).
  public var description: String {
    causes.map(\.description).joined(separator: "\n")
  }
}

/// One chain of causes of a ``TraceRecord``: the steps from the event back to a write.
public struct TraceCause: Sendable, Hashable, CustomStringConvertible {
  /// The steps from the record's event back to the write, nearest first, as they read in
  /// ``description``: the view property set (`BadgeView.text`), the derived values and
  /// computed properties (`count.map`), the property written (`count`). A property written by
  /// a sink of another one (a binding to a relay) is followed by that one's steps.
  public let steps: [String]
  /// The write the chain starts from, or `nil` when it was made before tracing started.
  public let write: TraceWrite?
  /// The line: the event, then each step, separated by `←`, the write's place at the end:
  /// `BadgeView.layout ← BadgeView.text ← count.map ← count (written at File.swift:12)`.
  public let description: String

  init(record: TraceRecord, path: [Cause]) {
    let links = Self.visible([record.cause] + path)
    var texts = links.map(Self.text)
    var write: TraceWrite?
    if let last = links.last {
      write = TraceWrite(last)
      if path.isEmpty || write == nil { texts[texts.count - 1] += Self.ending(of: last, path) }
    }
    self.write = write
    steps = links.dropFirst().map(Self.name)
    description = texts.joined(separator: " ← ")
  }

  /// The links shown: hidden ones dropped, and a change of a source followed by its own
  /// write shown as the write alone.
  private static func visible(_ links: [Cause]) -> [Cause] {
    var result: [Cause] = []
    for link in links where !link.isHidden {
      if case .write(let node, _, _) = link.step, let previous = result.last,
        case .change(let changed) = previous.step, changed.id == node.id
      {
        result.removeLast()
      }
      result.append(link)
    }
    return result
  }

  /// What a chain that stops at `last` says of it, when `last` says nothing of where it
  /// started: the event alone, or a view property changed before tracing.
  private static func ending(of last: Cause, _ path: [Cause]) -> String {
    switch last.step {
    case .pass where path.isEmpty:
      " (no traced request: a new view, or one requested before tracing started)"
    case .invalidation where path.isEmpty: " (no traced cause)"
    case .change where path.isEmpty: " (no traced cause)"
    default: ""
    }
  }

  /// A link's step as the line shows it.
  private static func text(_ link: Cause) -> String {
    switch link.step {
    case .write(let node, let site, let batch):
      return node.name + placed("written at", site?.description, batch)
    case .untraced(let node):
      return node.name + " (written before tracing started)"
    case .set(let object, let property, let site, let batch):
      let place = link.parents.isEmpty ? placed("declared at", site?.description, batch) : ""
      return "\(object.name).\(property)" + place
    case .invalidation(let object, let kind, let deduplicated):
      return "\(object.name).\(kind)" + (deduplicated ? " (deduplicated)" : "")
    default:
      return name(link)
    }
  }

  /// A link's name alone, for ``steps``.
  private static func name(_ link: Cause) -> String {
    switch link.step {
    case .write(let node, _, _), .change(let node), .untraced(let node): node.name
    case .set(let object, let property, _, _): "\(object.name).\(property)"
    case .invalidation(let object, let kind, _): "\(object.name).\(kind)"
    case .pass(let object, let name): "\(object.name).\(name)"
    case .request(let object, let call): "\(object.name).\(call)"
    case .truncated: "… (earlier causes not kept)"
    case .group: ""
    }
  }

  /// ` (written at File.swift:12, batch 3)`, with what is known of it.
  private static func placed(_ verb: String, _ site: String?, _ batch: Int?) -> String {
    var parts: [String] = []
    if let site { parts.append("\(verb) \(site)") }
    if let batch { parts.append("batch \(batch)") }
    return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
  }
}

/// Where a chain of causes started: the write of a property, or the set of a view's
/// invalidating property, with its place in the source and its batch.
public struct TraceWrite: Sendable, Hashable, CustomStringConvertible {
  /// What was written: a property's name (`count`, `BehaviorRelay(File.swift:4)`), or a view's
  /// property (`BadgeView.text`).
  public let target: String
  /// The file (`#fileID`: `Module/File.swift`) of the write, or of the property's declaration
  /// for a view property (whose setter has no place to take the caller's from).
  public let file: String
  /// The line of the write, or of the declaration.
  public let line: Int
  /// Whether ``file`` and ``line`` are where the view property is declared, not where it was
  /// set.
  public let isDeclaration: Bool
  /// The number of the batch the write was made in, counting the batches traced in this
  /// process from 1, or `nil` outside a batch.
  public let batch: Int?

  init?(_ link: Cause) {
    switch link.step {
    case .write(let node, let site, let batch):
      guard let site else { return nil }
      target = node.name
      file = site.file.description
      line = Int(site.line)
      isDeclaration = false
      self.batch = batch
    case .set(let object, let property, let site, let batch):
      guard let site, link.parents.isEmpty else { return nil }
      target = "\(object.name).\(property)"
      file = site.file.description
      line = Int(site.line)
      isDeclaration = true
      self.batch = batch
    default:
      return nil
    }
  }

  /// `File.swift:12`: the file's name, without its module, and the line.
  public var location: String { "\(NodeOrigin.fileName(file)):\(line)" }

  /// `count (written at File.swift:12, batch 3)`.
  public var description: String {
    let verb = isDeclaration ? "declared at" : "written at"
    return "\(target) (\(verb) \(location)" + (batch.map { ", batch \($0)" } ?? "") + ")"
  }
}
