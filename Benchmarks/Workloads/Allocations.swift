import AllocationCounter

/// How many blocks this thread has asked the allocator for so far, or `nil` where they are not
/// counted (see `Benchmarks/AllocationCounter`: glibc only, and not in sanitizer builds). The
/// difference of two calls counts every allocation between them, the Swift runtime's included.
func threadAllocations() -> Int? {
  let count = invalidating_thread_allocations()
  return count < 0 ? nil : count
}
