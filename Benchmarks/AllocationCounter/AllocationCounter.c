// Counts the calling thread's allocations for the benchmarks, by defining the allocator's entry
// points in the executable: the dynamic linker binds every library's calls to malloc (the Swift
// runtime's included) to the executable's definition first. Each one counts in a thread-local
// variable (one add, no atomics, so nothing else slows down) and calls glibc's own function,
// which glibc exports under its __libc_ name; free stays glibc's.

#include "AllocationCounter.h"

#include <errno.h>  // first: it defines __GLIBC__ on glibc
#include <stddef.h>

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

static __thread long allocations;

void *malloc(size_t size) {
  allocations += 1;
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  allocations += 1;
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  allocations += 1;
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  allocations += 1;
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  allocations += 1;
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  allocations += 1;
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

long invalidating_thread_allocations(void) { return allocations; }

#else

long invalidating_thread_allocations(void) { return -1; }

#endif
