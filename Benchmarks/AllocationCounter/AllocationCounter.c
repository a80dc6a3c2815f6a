// Counts the calling thread's allocations for the benchmarks, by defining the allocator's entry
// points in the executable: the dynamic linker binds every library's calls to malloc (the Swift
// runtime's included) to the executable's definition first. Each one counts in a thread-local
// variable (one add, no atomics, so nothing else slows down) and calls glibc's own function,
// which glibc exports under its __libc_ name; free stays glibc's. While a recording is open on
// the thread, each block is also written down with its size (see the header).

#include "AllocationCounter.h"

#include <errno.h>  // first: it defines __GLIBC__ on glibc
#include <stddef.h>
#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define INVALIDATING_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define INVALIDATING_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(INVALIDATING_SANITIZED)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

extern size_t malloc_usable_size(void *pointer);

static __thread long allocations;
static __thread invalidating_allocation *records;
static __thread long recordCapacity;
static __thread long recorded;

/// Counts a block and, while a recording is open, writes it down. Returns `pointer`.
static void *noted(void *pointer, size_t size) {
  allocations += 1;
  if (records != NULL && pointer != NULL) {
    if (recorded < recordCapacity) {
      // glibc's chunk: the usable bytes plus the 8-byte size word in front of them.
      records[recorded] = (invalidating_allocation){
          .address = (uintptr_t)pointer, .requested = size,
          .chunk = malloc_usable_size(pointer) + sizeof(size_t)};
    }
    recorded += 1;
  }
  return pointer;
}

void *malloc(size_t size) { return noted(__libc_malloc(size), size); }

void *calloc(size_t count, size_t size) {
  return noted(__libc_calloc(count, size), count * size);
}

void *realloc(void *pointer, size_t size) { return noted(__libc_realloc(pointer, size), size); }

void *memalign(size_t alignment, size_t size) {
  return noted(__libc_memalign(alignment, size), size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  return noted(__libc_memalign(alignment, size), size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void *pointer = noted(__libc_memalign(alignment, size), size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

long invalidating_thread_allocations(void) { return allocations; }

int invalidating_start_recording(invalidating_allocation *buffer, long capacity) {
  records = buffer;
  recordCapacity = capacity;
  recorded = 0;
  return 1;
}

long invalidating_stop_recording(void) {
  records = NULL;
  return recorded;
}

#else

long invalidating_thread_allocations(void) { return -1; }

int invalidating_start_recording(invalidating_allocation *buffer, long capacity) {
  (void)buffer;
  (void)capacity;
  return 0;
}

long invalidating_stop_recording(void) { return 0; }

#endif
