import AllocationCounter

/// How many blocks this thread has asked the allocator for so far, or `nil` where they are not
/// counted (see `Benchmarks/AllocationCounter`: glibc only, and not in sanitizer builds). The
/// difference of two calls counts every allocation between them, the Swift runtime's included.
func threadAllocations() -> Int? {
  let count = invalidating_thread_allocations()
  return count < 0 ? nil : count
}

/// What one operation of a profile asks of the allocator: blocks, the bytes asked for, the
/// bytes their chunks take (glibc's, size words included) and the blocks by size asked,
/// averaged over `iterations` runs of `run` recorded after one unrecorded run of as many, so
/// that what a first run grows (a thread's reused lists) is left out. `nil` where allocations
/// are not counted.
func allocationsPerOperation(
  of run: (Int) -> Void, iterations: Int
) -> (blocks: Double, requested: Double, chunks: Double, sizes: [(bytes: Int, count: Double)])? {
  guard threadAllocations() != nil, iterations > 0 else { return nil }
  run(iterations)
  let capacity = 64 * iterations + 1_024
  let records = UnsafeMutablePointer<invalidating_allocation>.allocate(capacity: capacity)
  defer { records.deallocate() }
  guard invalidating_start_recording(records, capacity) != 0 else { return nil }
  run(iterations)
  let asked = invalidating_stop_recording()
  let recorded = UnsafeBufferPointer(start: records, count: min(asked, capacity))
  let count = Double(iterations)
  var bySize: [Int: Int] = [:]
  for record in recorded { bySize[Int(record.requested), default: 0] += 1 }
  return (
    Double(asked) / count,
    Double(recorded.reduce(0) { $0 + $1.requested }) / count,
    Double(recorded.reduce(0) { $0 + $1.chunk }) / count,
    bySize.sorted { $0.key < $1.key }.map { ($0.key, Double($0.value) / count) }
  )
}
