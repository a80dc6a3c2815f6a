/// What a node is, where it was made and the name it was given: what misuse messages and
/// traces call it.
///
/// Every node made at one place in the source (one line that calls `BehaviorRelay(_:)`, or one
/// `map`) shares one origin, kept in a process-wide table (``made(_:file:line:)``), so a node
/// pays one reference for it and making a node allocates nothing more after the first time. A
/// node that is named (``AnyNode/setName(_:)``) gets an origin of its own.
@usableFromInline
package final class NodeOrigin: Sendable {
  /// What kind of node it is: `BehaviorRelay`, `map`, `computed`, ...
  package let kind: StaticString
  /// Where it was made (`#fileID`), if known.
  @usableFromInline package let file: StaticString?
  /// The line it was made on, if known (0 otherwise).
  @usableFromInline package let line: UInt
  /// The name given with `named(_:)`, if any.
  package let name: String?
  /// Whether traces show the node's inputs in its place (the node that follows a view pass's
  /// reads stands for the pass, which traces name already).
  package let isHidden: Bool
  /// The origin's number among the shared origins, from 1, in the order they were first
  /// asked for (0 for an origin of its own): what refers to it in 16 bits (see
  /// `numbered(_:)`).
  @usableFromInline package let serial: Int

  init(
    kind: StaticString, file: StaticString?, line: UInt, name: String?, isHidden: Bool,
    serial: Int = 0
  ) {
    self.kind = kind
    self.file = file
    self.line = line
    self.name = name
    self.isHidden = isHidden
    self.serial = serial
  }

  /// The shared origin numbered `serial`, if any.
  package static func numbered(_ serial: Int) -> NodeOrigin? {
    originTable.numbered(serial)
  }

  /// The origin shared by every node of `kind` made at `file:line`.
  ///
  /// - Complexity: One lock of a striped table and a hash lookup.
  @inlinable
  package static func made(_ kind: StaticString, file: StaticString, line: UInt) -> NodeOrigin {
    // Inlined, a node's initializer takes the origin unretained and stores it so (see
    // `AnyNode.origin`): no reference is counted.
    madeUnretained(kind, file: file, line: line).takeUnretainedValue()
  }

  /// `made(_:file:line:)`'s origin, unretained: the table keeps it for ever.
  @usableFromInline
  static func madeUnretained(
    _ kind: StaticString, file: StaticString, line: UInt
  ) -> Unmanaged<NodeOrigin> {
    ThreadContext.withCurrent { $0.originCache.origin(kind, file: file, line: line) }
  }

  /// The origin shared by every node of `kind` whose place of making is unknown or beside the
  /// point; `isHidden` as described above.
  @usableFromInline
  package static func kind(_ kind: StaticString, isHidden: Bool = false) -> NodeOrigin {
    originTable.origin(kind, file: nil, line: 0, isHidden: isHidden)
  }

  /// This origin with `name`: a new object, owned by the node named.
  package func named(_ name: String) -> NodeOrigin {
    NodeOrigin(kind: kind, file: file, line: line, name: name, isHidden: isHidden)
  }

  /// Whether the node is a computed property (`Property { }`).
  package var isComputedProperty: Bool { kind.description == "computed" }

  /// `File.swift:12`: the file's name without its module, and the line; `nil` when unknown.
  package var site: String? {
    guard let file else { return nil }
    return "\(NodeOrigin.fileName(file.description)):\(line)"
  }

  /// The last component of a `#fileID` or path: `File.swift` of `Module/File.swift`.
  package static func fileName(_ fileID: String) -> Substring {
    fileID.split(separator: "/").last ?? Substring(fileID)
  }
}

extension AnyNode {
  /// `origin`, read under the lock: `setName(_:)` may replace it on another thread.
  package final var lockedOrigin: NodeOrigin? {
    withRootLocked { root in
      let origin = origin
      root.lock.unlock()
      return origin
    }
  }

  /// Gives the node a name, for traces and messages, in place of where it was made.
  package final func setName(_ name: String) {
    let named = Unmanaged.passRetained((lockedOrigin ?? .kind("value")).named(name))
    let replaced = withRootLocked { root in
      let replaced = ownsOrigin ? originReference : nil
      originReference = named
      ownsOrigin = true
      root.lock.unlock()
      return replaced
    }
    // The origin of an earlier name, if any, released here, outside the lock. The names traces
    // gave the values derived from this one named them after the old name.
    replaced?.release()
    if Tracing.isOn { TraceState.shared.forgetNodeNames() }
  }

  /// The node as a misuse message names it: "A computed property (made at File.swift:12)",
  /// or "A derived value" when it is not a computed property.
  package final var describedForMisuse: String {
    guard let origin = lockedOrigin, origin.isComputedProperty, let file = origin.file
    else { return "A derived value" }
    let which = origin.name.map { "The computed property \"\($0)\"" } ?? "A computed property"
    return "\(which) (made at \(file):\(origin.line))"
  }
}

/// The origins shared by the nodes made at one place, by kind, file and line: 16 tables, each
/// under its own lock, so that threads making nodes at different places rarely meet.
private final class OriginTable: @unchecked Sendable {
  // Safe: each stripe's table is only touched under its lock, and `numbered` under
  // `numberingLock` (taken inside a stripe's lock, never the other way round).
  private struct Key: Hashable {
    let kind: UInt
    let file: UInt
    let line: UInt
  }

  private final class Stripe: @unchecked Sendable {
    // Safe: `origins` is only touched while `lock` is held.
    let lock = Lock()
    var origins: [Key: NodeOrigin] = [:]
  }

  private let stripes: [Stripe] = (0..<16).map { _ in Stripe() }
  /// Every shared origin, by serial (index 0 is unused); `numberingLock` guards it.
  private let numberingLock = Lock()
  nonisolated(unsafe) private var numbered: [NodeOrigin?] = [nil]

  func origin(
    _ kind: StaticString, file: StaticString?, line: UInt, isHidden: Bool
  ) -> NodeOrigin {
    let key = Key(
      kind: Self.identity(kind), file: file.map(Self.identity) ?? (isHidden ? 1 : 0), line: line)
    let stripe = stripes[key.hashValue & 15]
    stripe.lock.lock()
    defer { stripe.lock.unlock() }
    if let origin = stripe.origins[key] { return origin }
    numberingLock.lock()
    let made = NodeOrigin(
      kind: kind, file: file, line: line, name: nil, isHidden: isHidden, serial: numbered.count)
    numbered.append(made)
    numberingLock.unlock()
    stripe.origins[key] = made
    return made
  }

  func numbered(_ serial: Int) -> NodeOrigin? {
    numberingLock.lock()
    defer { numberingLock.unlock() }
    return serial > 0 && serial < numbered.count ? numbered[serial] : nil
  }

  /// A string literal's address, which identifies it: literals live as long as the program.
  @inline(__always)
  static func identity(_ string: StaticString) -> UInt {
    string.hasPointerRepresentation
      ? UInt(bitPattern: string.utf8Start) : UInt(string.unicodeScalar.value) | 1 << 63
  }
}

private let originTable = OriginTable()

/// The origins this thread looked up most recently, by source line: a node made in a loop (a
/// cell's view model, a list's rows) finds its origin here with a few comparisons, where the
/// process-wide table hashes and locks (about 900 instructions). Two-way: a site's entry is in
/// one of the two slots of its pair, the one found last in the first, so that two sites of one
/// pair, made in turn, both stay. The pair is taken from the high bits of the key's product
/// with a 64-bit odd constant: the low bits, used before, put sites of consecutive lines of
/// two kinds on the same slots (six of a view model's fifteen missed on every making).
/// Entries point at origins the table keeps for ever, so they are held unretained.
struct OriginCache {
  private struct Entry {
    var kind: UInt = 0
    var file: UInt = 0
    var line: UInt = 0
    var origin: Unmanaged<NodeOrigin>?
  }

  private static let size = 64
  private let entries: UnsafeMutablePointer<Entry> = {
    let entries = UnsafeMutablePointer<Entry>.allocate(capacity: OriginCache.size)
    entries.initialize(repeating: Entry(), count: OriginCache.size)
    return entries
  }()

  /// Frees the entries (the thread's context is going away).
  func deallocate() {
    entries.deinitialize(count: Self.size)
    entries.deallocate()
  }

  /// The origin of a node of `kind` made at `file:line`, from this cache or the table,
  /// unretained: the table keeps it for ever.
  @inline(__always)
  func origin(_ kind: StaticString, file: StaticString, line: UInt) -> Unmanaged<NodeOrigin> {
    let kindWord = OriginTable.identity(kind)
    let fileWord = OriginTable.identity(file)
    let key = (fileWord ^ kindWord &* 31) &* 0x9E37_79B9 ^ line
    let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 58) & (Self.size - 2)
    let first = entries[slot]
    if first.line == line, first.file == fileWord, first.kind == kindWord,
      let origin = first.origin
    {
      return origin
    }
    let second = entries[slot + 1]
    if second.line == line, second.file == fileWord, second.kind == kindWord,
      let origin = second.origin
    {
      return origin
    }
    let found = Unmanaged.passUnretained(
      originTable.origin(kind, file: file, line: line, isHidden: false))
    entries[slot + 1] = first
    entries[slot] = Entry(kind: kindWord, file: fileWord, line: line, origin: found)
    return found
  }
}
