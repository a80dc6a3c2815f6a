#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Subscriptions that end together: when the bag is released, or when ``cancelAll()`` is
/// called.
///
/// ```swift
/// final class ProfileScreen {
///   private let subscriptions = SubscriptionBag()
///
///   init(model: ProfileModel) {
///     model.name.subscribe(in: subscriptions) { print("name:", $0) }
///     model.saved.subscribe(in: subscriptions) { print("saved") }
///     model.status.drive { print($0) }.store(in: subscriptions)
///   }
/// }
/// ```
///
/// A subscription made with `subscribe(in:_:)` costs less memory than one that returns a
/// ``SubscriptionToken``: the bag keeps one pointer for it, where a token is an object of its
/// own. Use a token for a subscription that must end on its own; use a bag for those that end
/// with their owner. Any token can also be kept in a bag with ``SubscriptionToken/store(in:)-(SubscriptionBag)``.
///
/// A bag can be used from any thread. ``cancelAll()`` ends every subscription in the bag at
/// the time of the call, with the same guarantees as ``SubscriptionToken/cancel()``; the bag
/// stays usable, and subscriptions added to it later end with its next `cancelAll()` or its
/// release.
///
/// - Complexity: Adding a subscription is amortized O(1); `cancelAll()` is O(n) in the
///   subscriptions it ends.
public final class SubscriptionBag: @unchecked Sendable {
  // Safe: every stored property is read and written only under the bag's stripe of the
  // subscription locks (see `stripe`), or in `deinit`, when nothing else refers to the bag.
  // That makes every access exclusive, hence `@exclusivity(unchecked)`: the dynamic checks
  // cost about 300 instructions of a bag made, given a subscription and released.

  /// The subscriptions' slots, in blocks that never move: a slot's address is its
  /// subscription's identifier among its node's sinks (unique while the slot is allocated, and
  /// never the address of a token, which is an allocation of its own).
  ///
  /// A slot holds its node, retained, as the bits of its pointer; the low bit is set once the
  /// subscription counts among the node's handles (`claim`), so that ending it must remove it
  /// from the node.
  ///
  /// The blocks are a chain, newest first: word 0 of a block holds the address of the block
  /// before it (0 for the first), and its slots follow. A bag keeps only the newest block, so
  /// that its first subscription allocates one block and no array to list it.
  @exclusivity(unchecked) private var lastBlock: UnsafeMutablePointer<UInt>?

  /// How many blocks the chain has (0 when `lastBlock` is `nil`).
  @exclusivity(unchecked) private var blockCount = 0

  /// The slots in use in the last block.
  @exclusivity(unchecked) private var usedInLast = 0

  /// How many times `cancelAll()` has run: a subscription reserved in an earlier generation is
  /// no longer the bag's, and must not be registered.
  @exclusivity(unchecked) private var generation: UInt64 = 0

  /// The tokens stored in the bag with `SubscriptionToken.store(in:)`.
  @exclusivity(unchecked) private var tokens: [SubscriptionToken] = []

  /// Creates an empty bag.
  public init() {}

  deinit {
    cancelAll()
  }

  /// Ends every subscription in the bag, and cancels every token stored in it.
  ///
  /// Each ends as if by ``SubscriptionToken/cancel()``, the newest first, then the tokens stored
  /// in the bag, in the order they were stored. A subscription added on another thread
  /// while this runs either ends too or stays in the bag. The bag can be used again.
  public func cancelAll() {
    let lock = stripe
    lock.lock()
    let taken = (lastBlock, blockCount, usedInLast, tokens)
    lastBlock = nil
    blockCount = 0
    usedInLast = 0
    tokens = []
    generation &+= 1
    lock.unlock()
    Self.end(taken.0, count: taken.1, usedInLast: taken.2, tokens: taken.3)
  }

  /// Keeps `token` until the bag ends its subscriptions.
  func store(_ token: SubscriptionToken) {
    let lock = stripe
    lock.lock()
    tokens.append(token)
    lock.unlock()
  }

  /// Ends the subscriptions of the chain of `count` blocks whose newest is `last`, taken from a
  /// bag, newest first, and frees the blocks; cancels `tokens`.
  private static func end(
    _ last: UnsafeMutablePointer<UInt>?, count: Int, usedInLast: Int,
    tokens: [SubscriptionToken]
  ) {
    var block = last
    var index = count - 1
    while let current = block {
      let used = index == count - 1 ? usedInLast : capacity(ofBlock: index)
      for slot in (current + 1..<current + 1 + used).reversed() {
        let bits = slot.pointee
        let node = Unmanaged<AnyNode>.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~1)!)
          .takeRetainedValue()
        if bits & 1 != 0 { node.endSubscription(UInt64(UInt(bitPattern: slot))) }
      }
      block = UnsafeMutablePointer(bitPattern: current.pointee)
      index -= 1
    }
    freeBlocks(last)
    for token in tokens { token.cancel() }
  }

  /// Frees the chain of blocks whose newest is `last`, whose subscriptions have ended.
  ///
  /// A slot's address is an identifier that a delivery under way on this thread may still
  /// hold (the sinks it captured), and `ValueNode.wasCancelled` tells a sink cancelled
  /// meanwhile from one registered since under the same identifier by comparing closures too;
  /// a subscription made again with the same closure (`cancelAll()` then `subscribe(in:)`
  /// from a sink, a common way to rebind) would pass for the cancelled one. So while this
  /// thread has cancelled sinks of a delivery under way, the blocks are freed only when that
  /// list is cleared, at the end of the outermost scope, and no new slot can take their
  /// addresses before.
  private static func freeBlocks(_ last: UnsafeMutablePointer<UInt>?) {
    guard last != nil else { return }
    // The context borrowed: `ThreadContext.current` retained and released it.
    ThreadContext.withCurrent { context in
      let deferred = context.scope.depth > 0 && !context.scope.cancelledDuringDelivery.isEmpty
      var block = last
      while let current = block {
        block = UnsafeMutablePointer(bitPattern: current.pointee)
        if deferred {
          context.scope.slotBlocksToFree.append(current)
        } else {
          free(current)
        }
      }
    }
  }

  /// How many slots block `index` has (after its word 0, the link to the block before): 4,
  /// doubling up to 256, so that a bag with a few subscriptions stays small and one with many
  /// wastes little.
  private static func capacity(ofBlock index: Int) -> Int { 4 << min(index, 6) }

  /// The lock that guards the bag's fields: one of the subscription locks, chosen by the bag's
  /// address. It is held only to read or write them, never while taking another lock.
  private var stripe: Lock.Handle {
    subscriptionLock(for: UInt(bitPattern: ObjectIdentifier(self)))
  }

  // MARK: The engine's side

  /// Reserves a slot for a subscription to `node`: returns its identifier among the node's
  /// sinks, and the generation the subscription belongs to (see `claim`).
  @usableFromInline
  func reserve(_ node: AnyNode) -> (id: UInt64, generation: UInt64) {
    let retained = UInt(bitPattern: Unmanaged.passRetained(node).toOpaque())
    let lock = stripe
    lock.lock()
    if blockCount == 0 || usedInLast == Self.capacity(ofBlock: blockCount - 1) {
      let capacity = 1 + Self.capacity(ofBlock: blockCount)
      // `malloc` itself, as for a lock's block: `UnsafeMutablePointer.allocate` goes through
      // the runtime's aligned path (`posix_memalign`), about 60 instructions more a block.
      guard let memory = malloc(capacity * MemoryLayout<UInt>.stride) else {
        fatalError("Out of memory: a subscription bag's block could not be allocated")
      }
      let block = memory.bindMemory(to: UInt.self, capacity: capacity)
      block.initialize(to: lastBlock.map { UInt(bitPattern: $0) } ?? 0)
      lastBlock = block
      blockCount += 1
      usedInLast = 0
    }
    let slot = lastBlock.unsafelyUnwrapped + 1 + usedInLast
    slot.initialize(to: retained)
    usedInLast += 1
    let generation = generation
    lock.unlock()
    return (UInt64(UInt(bitPattern: slot)), generation)
  }

  /// Marks the subscription `id` as counted among its node's handles, unless the bag ended it
  /// (its generation is over): then returns `false`, and it must not be registered. Called
  /// with the node's root locked, which orders it against `cancelAll()`'s removal.
  @usableFromInline
  func claim(_ id: UInt64, generation: UInt64) -> Bool {
    let lock = stripe
    lock.lock()
    defer { lock.unlock() }
    guard generation == self.generation else { return false }
    UnsafeMutablePointer<UInt>(bitPattern: UInt(id))!.pointee |= 1
    return true
  }

  /// Whether the subscriptions of `generation` have ended.
  @usableFromInline
  func hasEnded(_ generation: UInt64) -> Bool {
    let lock = stripe
    lock.lock()
    defer { lock.unlock() }
    return generation != self.generation
  }
}

/// Who ends a subscription being registered: its token, or the bag it was made in (with the
/// bag's generation at the time).
@usableFromInline
enum SubscriptionOwner: Sendable {
  case token(SubscriptionToken)
  case bag(SubscriptionBag, generation: UInt64)

  /// Whether the subscription has been ended already. Takes the owner's lock.
  @usableFromInline
  func hasEnded() -> Bool {
    switch self {
    case .token(let token): token.isCancelled
    case .bag(let bag, let generation): bag.hasEnded(generation)
    }
  }

  /// Whether the subscription may end before `subscribe` returns: a bag's may (emptied on
  /// another thread, or by code the subscription runs), a token's cannot, since nothing else
  /// holds the token until it is returned.
  @inlinable
  var mayEndBeforeReturning: Bool {
    if case .bag = self { return true }
    return false
  }
}
