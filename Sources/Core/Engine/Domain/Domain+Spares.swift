#if canImport(InvalidatingPrimitives)
  import InvalidatingPrimitives
#endif

/// Domains kept for the next sources a thread makes.
///
/// Every source starts in a domain of its own, and most relays are never read together with
/// another: a view model's relays live and die alone. When a node that was the only holder of
/// its domain is freed and the domain is as new (nothing merged into it, nothing queued, no
/// drainer), the domain goes to the freeing thread's spares instead of to `free`, and the next
/// `Domain.make()` on that thread takes it back: one allocation, its initialization and its
/// free (about 300 instructions) fewer per relay made and released.
///
/// A spare keeps its write count, one more, so that no value stamped by the domain's earlier
/// life (a pulled value's stamp, a subscriber's creation stamp) can match a stamp of its next.
struct SpareDomains {
  /// How many domains a thread keeps: enough for the relays of a view model made and
  /// released together, few enough that a thread holds little memory for them (each is 280
  /// bytes).
  static let limit = 32

  /// The spares, owned (each retained once), `count` of them from the start.
  private let slots = UnsafeMutablePointer<Unmanaged<Domain>>.allocate(capacity: limit)
  private var count = 0

  /// Keeps `domain` if there is room.
  mutating func keep(_ domain: Domain) {
    guard count < Self.limit else { return }
    slots[count] = .passRetained(domain)
    count += 1
  }

  /// A spare, if any, now the caller's.
  mutating func take() -> Domain? {
    guard count > 0 else { return nil }
    count -= 1
    let domain = slots[count].takeRetainedValue()
    domain.writeCount &+= 1
    return domain
  }

  /// How many spares there are.
  var spareCount: Int { count }

  /// Frees the spares.
  mutating func freeAll() {
    while count > 0 {
      count -= 1
      slots[count].release()
    }
  }

  /// Frees the spares and the slots (the thread's context is going away).
  mutating func deallocate() {
    freeAll()
    slots.deallocate()
  }
}

extension Engine {
  /// Whether one strong reference holds `object`, a Swift object: the runtime's own test,
  /// which `isKnownUniquelyReferenced` makes of a variable only. The engine asks it of a
  /// stored `let` (a node's `home`, a relay's source), and a `var` field would be retained
  /// around every call that reads it (44 instructions more on every write). Without the
  /// primitives' module (the Apple glue's check compiles this module alone) the answer is no:
  /// domains are then freed, and relays completed, as before.
  /// (Generic, not `AnyObject`: an unoptimized build copies an existential, a reference
  /// more, and then no object is ever held once.)
  @inline(__always)
  static func isHeldOnce<Object: AnyObject>(_ object: Object) -> Bool {
    #if canImport(InvalidatingPrimitives)
      invalidating_is_uniquely_referenced(Unmanaged.passUnretained(object).toOpaque())
    #else
      false
    #endif
  }
}

extension AnyNode {
  /// Whether one strong reference holds this node: the caller's. A relay asks it of its
  /// source in its `deinit`: a source held by nothing else (no subscription, property, derived
  /// value or queued write, which all retain it) goes with the relay, and nothing can see it
  /// complete.
  package final var isHeldOnce: Bool { Engine.isHeldOnce(self) }
}

extension Domain {
  /// A domain with nothing in it yet: one of this thread's spares, or a new one.
  @usableFromInline
  package static func make() -> Domain {
    if let spare = ThreadContext.withCurrent({ $0.spareDomains.take() }) { return spare }
    let domain = unsafeDowncast(
      Domain.create(minimumCapacity: elementCount) { _ in DomainFields() }, to: Domain.self)
    Lock.Handle.initialize(domain.lockPrimitive)
    return domain
  }

  /// Frees the calling thread's spare domains: for tests that watch domains being freed.
  package static func freeSpares() {
    ThreadContext.withCurrent { $0.spareDomains.freeAll() }
  }

  /// How many spare domains the calling thread keeps now (at most `SpareDomains.limit`).
  package static var spareCount: Int {
    ThreadContext.withCurrent { $0.spareDomains.spareCount }
  }

  /// Keeps `domain`, which the node being freed held alone, as one of this thread's spares if
  /// it is as new; otherwise it is freed with the node.
  @usableFromInline
  static func recycle(_ domain: Domain) {
    guard domain.isAsNew, let context = ThreadContext.existing else { return }
    context._withUnsafeGuaranteedRef { $0.spareDomains.keep(domain) }
  }

  /// Whether the domain holds nothing a new one would not: no merged domain, nothing queued
  /// or waiting, no drainer. Asked only of a domain nothing else refers to, so it needs no lock.
  private var isAsNew: Bool {
    let fields = self.fields
    var isAsNew =
      !fields.pointee.isForwarded && fields.pointee.mergedCount == 0
      && fields.pointee.joinCount == 0 && !fields.pointee.hasCommitWork
      && fields.pointee.unsettled == 0 && fields.pointee.queue.isEmpty
      && fields.pointee.role.isFree && fields.pointee.role.waiters.isEmpty
      && !fields.pointee.role.isClosing
    #if DEBUG
      isAsNew =
        isAsNew && fields.pointee.debugChildren.isEmpty && fields.pointee.debugSpans.isEmpty
    #endif
    return isAsNew
  }
}
