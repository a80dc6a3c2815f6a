#ifndef INVALIDATING_ALLOCATION_COUNTER_H
#define INVALIDATING_ALLOCATION_COUNTER_H

#include <stddef.h>
#include <stdint.h>

/// How many blocks the calling thread has asked the allocator for so far (malloc, calloc,
/// realloc, aligned_alloc, memalign, posix_memalign), or -1 where they are not counted: outside
/// glibc, and in sanitizer builds, whose runtime replaces the allocator itself.
long invalidating_thread_allocations(void);

/// One block asked of the allocator while a recording was open.
typedef struct {
  /// Where the block starts.
  uintptr_t address;
  /// The bytes asked for (for realloc, the new size).
  size_t requested;
  /// The bytes the block takes from the heap: glibc's chunk, its size word included.
  size_t chunk;
} invalidating_allocation;

/// Starts writing down each block the calling thread asks for, into `buffer` (at most
/// `capacity` of them); returns 0 where allocations are not counted, and nothing is written.
int invalidating_start_recording(invalidating_allocation *buffer, long capacity);

/// Stops the calling thread's recording; returns how many blocks were asked for while it was
/// open (more than the capacity when the buffer was too small).
long invalidating_stop_recording(void);

#endif
