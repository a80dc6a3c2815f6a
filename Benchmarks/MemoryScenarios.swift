import Invalidating

#if canImport(Glibc)
  import Glibc
#endif

// Heap bytes per subscription, from the allocator's own count of bytes in use.

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

/// Heap growth per subscription: `count` subscriptions to one relay, against as many closures
/// appended to a hand-written relay. The arrays that hold the tokens are reserved beforehand,
/// so only what subscribing allocates is counted.
func heapPerSubscription(count: Int = 10_000) -> Row {
  guard heapBytesInUse() != nil else {
    return Row(
      name: "heap per subscription", ours: .nan, target: "<= 64 B", pass: nil, unit: "bytes",
      note: "no allocator statistics on this platform")
  }
  let relay = BehaviorRelay(0)
  let ours = heapGrowth(count) { relay.subscribe(sink) }
  let baseline = ClosureRelay(0)
  let closures = heapGrowth(count) { baseline.subscribe(sink) }
  return Row(
    name: "heap per subscription", ours: ours, baseline: closures, target: "<= 64 B",
    pass: ours <= 64, unit: "bytes", note: "\(count) subscriptions to one relay")
}

/// Heap bytes in use after `count` calls of `subscribe` minus before, per call; what each call
/// returns is kept, in an array reserved beforehand, until the count is taken.
func heapGrowth<Token>(_ count: Int, _ subscribe: () -> Token) -> Double {
  var tokens: [Token] = []
  tokens.reserveCapacity(count)
  let before = heapBytesInUse()!
  for _ in 0..<count { tokens.append(subscribe()) }
  let growth = Double(heapBytesInUse()! - before) / Double(count)
  blackHole(tokens)
  return growth
}
