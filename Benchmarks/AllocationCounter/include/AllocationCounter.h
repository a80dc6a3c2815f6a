#ifndef INVALIDATING_ALLOCATION_COUNTER_H
#define INVALIDATING_ALLOCATION_COUNTER_H

/// How many blocks the calling thread has asked the allocator for so far (malloc, calloc,
/// realloc, aligned_alloc, memalign, posix_memalign), or -1 where they are not counted: outside
/// glibc, and in sanitizer builds, whose runtime replaces the allocator itself.
long invalidating_thread_allocations(void);

#endif
