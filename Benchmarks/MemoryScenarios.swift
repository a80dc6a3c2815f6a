import AllocationCounter
import Invalidating

#if canImport(Glibc)
  import Glibc
#endif

// Heap bytes per subscription, from the allocator's own count of bytes in use, with the blocks
// each subscription asked for (the allocation counter's recording) to say where they went.

/// glibc's `mallinfo2()`, looked up at run time: the Glibc module does not import
/// `<malloc.h>`. The function returns a 10-word struct, which the x86-64 System V ABI returns
/// through a caller-provided buffer passed exactly like a first pointer argument, so the
/// function is called through that equivalent C signature.
private let mallinfo2: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?)? = {
  #if canImport(Glibc) && arch(x86_64)
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallinfo2") else { return nil }
    return unsafeBitCast(
      symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?).self)
  #else
    return nil
  #endif
}()

/// Bytes the allocator has handed out and not taken back, or `nil` where it cannot say:
/// `uordblks` (heap chunks in use) plus `hblkhd` (large blocks, such as a big array, that
/// glibc maps directly).
func heapBytesInUse() -> Int? {
  guard let mallinfo2 else { return nil }
  // struct mallinfo2 { size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks,
  //   uordblks, fordblks, keepcost; }
  var fields = [Int](repeating: 0, count: 10)
  fields.withUnsafeMutableBytes { _ = mallinfo2($0.baseAddress!) }
  return fields[7] + fields[4]
}

/// An object in an app's style that follows a relay: its closures capture it weakly.
final class Listener: @unchecked Sendable {
  // Safe: written only by the benchmark's main thread, which delivers every change here.

  /// The value heard last.
  var latest = 0
}

/// What a way of making closures costs on the heap, per closure made: the bytes in use after
/// minus before, and the blocks asked for, by the size asked.
struct HeapCost {
  /// Heap growth per closure made, in bytes (glibc's chunks, size words included).
  var bytes = 0.0
  /// Per size asked: blocks asked for per closure made, and the bytes their chunks take.
  var blocks: [Int: (count: Double, bytes: Double)] = [:]

  /// The blocks asked for about once per closure (not those of a growing array, which are
  /// asked for once in many calls), by the size asked.
  var perCallBlocks: [Int: (count: Double, bytes: Double)] {
    blocks.filter { $0.value.count >= 0.5 }
  }
}

/// The heap cost of `make`, averaged over runs whose counts span one doubling (from 8,192 to
/// 16,384 calls, `runs` of them), so that arrays that grow by doubling or by a quarter are
/// seen at every point of their growth, not at one. Each run calls `make` on a state of its own
/// (a fresh relay), made by `setUp` before counting; it keeps what `make` returns in an array
/// reserved beforehand and counts the heap before it lets them go.
func heapCost<State, Kept>(
  runs: Int, setUp: () -> State, make: (State) -> Kept
) -> HeapCost {
  let counts = (0..<runs).map { Int(8_192 * pow(2, Double($0) / Double(runs))) }
  let capacity = 16 * counts.max()! + 64
  let records = UnsafeMutablePointer<invalidating_allocation>.allocate(capacity: capacity)
  defer { records.deallocate() }
  var cost = HeapCost()
  var total = 0
  for count in counts {
    let state = setUp()
    var kept: [Kept] = []
    kept.reserveCapacity(count)
    let before = heapBytesInUse()!
    _ = invalidating_start_recording(records, capacity)
    for _ in 0..<count { kept.append(make(state)) }
    let recorded = min(invalidating_stop_recording(), capacity)
    cost.bytes += Double(heapBytesInUse()! - before)
    total += count
    for record in UnsafeBufferPointer(start: records, count: recorded) {
      let size = Int(record.requested)
      let entry = cost.blocks[size] ?? (0, 0)
      cost.blocks[size] = (entry.count + 1, entry.bytes + Double(record.chunk))
    }
    blackHole(kept)
    blackHole(state)
  }
  cost.bytes /= Double(total)
  cost.blocks = cost.blocks.mapValues { ($0.count / Double(total), $0.bytes / Double(total)) }
  return cost
}

/// `cost` less the closures' own cost: the bytes, and the per-call blocks with the closures'
/// taken out by size.
func beyond(_ closures: HeapCost, _ cost: HeapCost) -> (bytes: Double, blocks: String) {
  var blocks = cost.perCallBlocks
  for (size, closure) in closures.perCallBlocks {
    guard let entry = blocks[size] else { continue }
    blocks[size] = (entry.count - closure.count, entry.bytes - closure.bytes)
  }
  let described = blocks.filter { $0.value.count >= 0.5 }.sorted { $0.key < $1.key }.map {
    "\(format($0.value.count, 0)) x \($0.key) B asked (\(format($0.value.bytes / $0.value.count, 0)) B chunk)"
  }
  let perCall = blocks.values.reduce(0) { $0 + max(0, $1.bytes) }
  let storage = cost.bytes - closures.bytes - perCall
  return (
    cost.bytes - closures.bytes,
    (described + ["sinks storage \(format(storage))"]).joined(separator: " + ")
  )
}

/// Heap per subscription beyond the closure: closures made inside a function and subscribed to
/// one relay, against the same closures appended to the hand-written relay, each less what
/// making the closures alone costs (their contexts). `weakly`: closures in the `[weak self]`
/// style, whose context holds the weak reference; otherwise closures that capture a local
/// object, which Swift passes as the context itself (no block of their own). `inBag`: the
/// subscriptions are kept by a `SubscriptionBag` (`subscribe(in:)`), which is held to the
/// issue's target; otherwise each returns a token, an object of its own (for information:
/// its 32-byte chunk and the sink's 24-byte entry alone exceed the target).
func heapPerSubscription(weakly: Bool, inBag: Bool, quick: Bool) -> Row {
  let name =
    "heap per subscription" + (inBag ? " in a bag, " : " with a token, ")
    + (weakly ? "[weak self] closure" : "closure capturing a local object")
  let target = inBag ? "<= 40 B beyond the closure" : "-"
  guard heapBytesInUse() != nil, threadAllocations() != nil else {
    return Row(
      name: name, ours: .nan, target: target, pass: nil, unit: "B/sub",
      note: "no allocator statistics on this platform")
  }
  let runs = quick ? 3 : 8
  let (closures, ours, floor) =
    weakly
    ? heapCostsOfWeakClosures(runs: runs, inBag: inBag)
    : heapCostsOfCapturingClosures(runs: runs, inBag: inBag)
  let oursBeyond = beyond(closures, ours)
  let floorBeyond = beyond(closures, floor)
  return Row(
    name: name, ours: oursBeyond.bytes, baseline: floorBeyond.bytes, target: target,
    pass: inBag ? oursBeyond.bytes <= 40 : nil, unit: "B/sub",
    note: "closure \(format(closures.bytes)) B; ours: \(oursBeyond.blocks); floor: "
      + floorBeyond.blocks)
}

/// A closure kept as its own type: kept in an array as a generic value (`[Kept]`), a closure
/// would be wrapped in a reabstraction thunk, whose context the subscriptions do not pay.
struct Sink {
  let call: @Sendable (Int) -> Void
  init(_ call: @escaping @Sendable (Int) -> Void) { self.call = call }
}

/// The heap costs of `{ [weak listener] in listener?.latest = $0 }`, made alone, subscribed to
/// a relay (with a token each, or in a bag) and appended to the hand-written relay.
func heapCostsOfWeakClosures(runs: Int, inBag: Bool) -> (HeapCost, HeapCost, HeapCost) {
  let listener = Listener()
  let closures = heapCost(
    runs: runs, setUp: {}, make: { Sink { [weak listener] in listener?.latest = $0 } })
  let ours =
    inBag
    ? heapCost(
      runs: runs, setUp: { (BehaviorRelay(0), SubscriptionBag()) },
      make: { relay, bag in relay.subscribe(in: bag) { [weak listener] in listener?.latest = $0 } }
    )
    : heapCost(
      runs: runs, setUp: { BehaviorRelay(0) },
      make: { relay in relay.subscribe { [weak listener] in listener?.latest = $0 } })
  let floor = heapCost(
    runs: runs, setUp: { ClosureRelay(0) },
    make: { relay in relay.subscribe { [weak listener] in listener?.latest = $0 } })
  return (closures, ours, floor)
}

/// The heap costs of `{ tally.total &+= $0 }`, which captures a local object, made alone,
/// subscribed to a relay (with a token each, or in a bag) and appended to the hand-written
/// relay.
func heapCostsOfCapturingClosures(runs: Int, inBag: Bool) -> (HeapCost, HeapCost, HeapCost) {
  let tally = Tally()
  let closures = heapCost(runs: runs, setUp: {}, make: { Sink { tally.total &+= $0 } })
  let ours =
    inBag
    ? heapCost(
      runs: runs, setUp: { (BehaviorRelay(0), SubscriptionBag()) },
      make: { relay, bag in relay.subscribe(in: bag) { tally.total &+= $0 } })
    : heapCost(
      runs: runs, setUp: { BehaviorRelay(0) },
      make: { relay in relay.subscribe { tally.total &+= $0 } })
  let floor = heapCost(
    runs: runs, setUp: { ClosureRelay(0) },
    make: { relay in relay.subscribe { tally.total &+= $0 } })
  return (closures, ours, floor)
}

/// Heap per relay: relays made inside a function and kept, with no subscriber; for
/// information (every relay has a node, a domain and a lock of its own).
func heapPerRelay(quick: Bool) -> Row {
  guard heapBytesInUse() != nil, threadAllocations() != nil else {
    return Row(
      name: "heap per relay", ours: .nan, target: "-", pass: nil, unit: "B",
      note: "no allocator statistics on this platform")
  }
  let cost = heapCost(runs: quick ? 2 : 4, setUp: {}, make: { BehaviorRelay(0) })
  let blocks = cost.perCallBlocks.sorted { $0.key < $1.key }.map { "\($0.key)" }
  return Row(
    name: "heap per relay", ours: cost.bytes, target: "-", pass: nil, unit: "B",
    note: "blocks asked (bytes): " + blocks.joined(separator: ", "))
}
