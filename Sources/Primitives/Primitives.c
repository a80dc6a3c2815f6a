#include "InvalidatingPrimitives.h"

#if !defined(__APPLE__)

// Where the waiting thread sleeps. On Linux, in the kernel: a futex wait on the lock's word, and
// a futex wake from the unlock. Elsewhere off Apple platforms (FreeBSD, OpenBSD, Windows,
// WebAssembly; untested, see the README's platform table) there is no futex: a waiting thread
// yields its core instead of sleeping (`sched_yield`, Windows' `SwitchToThread`) and polls the
// word again, and the unlock wakes no one. The word keeps the same three states either way, so
// the lock is correct in both, and only a long wait costs more without the futex (a waiter
// keeps being scheduled). `INVALIDATING_LOCK_YIELD` selects the yielding wait on Linux too, so
// that it can be tested here (scripts/check-lock-fallback).
#if defined(__linux__) && !defined(INVALIDATING_LOCK_YIELD)
#define INVALIDATING_LOCK_FUTEX 1
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(_WIN32)
#include <windows.h>
#else
#include <sched.h>
#endif

// `nodebug`, here and on every function below: valgrind 3.19 (scripts/count-instructions) gives
// up reading a program whose debug information describes this variable, or this file's
// functions (it fails on the DWARF 5 clang writes for them), so the file has none. For the same
// reason the futex calls pass no `NULL`: the unused arguments are `0L` (`syscall` reads every
// argument as a `long`), since a `void *` argument alone brings the file's debug information
// back.
__thread void *_Nullable invalidating_thread_context __attribute__((tls_model("initial-exec"), nodebug));

__thread uint32_t *_Nullable invalidating_lock_held_for_user_code
    __attribute__((tls_model("initial-exec"), nodebug));

__thread intptr_t invalidating_debug_locks_held __attribute__((tls_model("initial-exec"), nodebug));

// How many times a thread that finds the lock taken polls it before sleeping in the kernel.
// The engine holds its locks for a few loads and stores, so a holder running on another core
// usually releases within a few polls; a holder that was preempted is not waited for long
// (each poll's pause takes tens of cycles, up to about 140 on recent Intel cores).
#define INVALIDATING_LOCK_SPINS 40

// Tells the core that this is a spin-wait loop: on x86 `pause` saves power and avoids the
// memory-order mis-speculation on exit; `yield` is ARM's hint.
static inline __attribute__((always_inline, nodebug)) void invalidating_lock_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}

__attribute__((nodebug)) int invalidating_lock_lock_contended(uint32_t *_Nonnull state) {
  // The one wait that can never end: this thread holds the lock itself, running user code
  // under it. Report it rather than sleep.
  if (state == invalidating_lock_held_for_user_code) {
    return 1;
  }
  // Spin: relaxed loads until the word reads 0, then one try to take it as the fast path does.
  for (int spin = 0; spin < INVALIDATING_LOCK_SPINS; spin++) {
    invalidating_lock_pause();
    if (__atomic_load_n(state, __ATOMIC_RELAXED) == 0) {
      uint32_t expected = 0;
      if (__atomic_compare_exchange_n(state, &expected, 1, 0, __ATOMIC_ACQUIRE,
                                      __ATOMIC_RELAXED)) {
        return 0;
      }
    }
  }
  // Sleep: mark the word 2 (someone waits) and sleep while it stays 2 (without a futex: yield
  // while it stays 2). The exchange that finds it 0 has taken the lock, leaving it at 2: the
  // unlock then makes a wake-up call that may find no one to wake, the price of not counting
  // waiters. A wait that returns early (the word changed before the kernel compared it: EAGAIN;
  // a signal: EINTR) just goes round.
  uint32_t found = __atomic_exchange_n(state, 2, __ATOMIC_ACQUIRE);
  while (found != 0) {
#if defined(INVALIDATING_LOCK_FUTEX)
    syscall(SYS_futex, state, FUTEX_WAIT_PRIVATE, 2, 0L, 0L, 0L);
#elif defined(_WIN32)
    SwitchToThread();
#else
    sched_yield();
#endif
    found = __atomic_exchange_n(state, 2, __ATOMIC_ACQUIRE);
  }
  return 0;
}

__attribute__((nodebug)) void invalidating_lock_wake(uint32_t *_Nonnull state) {
#if defined(INVALIDATING_LOCK_FUTEX)
  syscall(SYS_futex, state, FUTEX_WAKE_PRIVATE, 1, 0L, 0L, 0L);
#else
  // Nobody sleeps: a waiter polls the word between yields, and sees the unlock's store.
  (void)state;
#endif
}

#if defined(__GLIBC__)
#include <execinfo.h>
#endif

__attribute__((nodebug)) void invalidating_debug_print_backtrace(void) {
#if defined(__GLIBC__)
  // The calling thread's own frames: glibc's unwinder, which needs no other thread suspended
  // (Swift's backtracer does, and fails to under ThreadSanitizer). Mangled names, with offsets.
  void *frames[64];
  int count = backtrace(frames, 64);
  backtrace_symbols_fd(frames, count, 2);
#endif
}
#else
// Nothing else to define on Apple platforms (see the header).
typedef int invalidating_thread_local_unused;
#endif

// On every platform (see the header). `nodebug`: see the thread-local variables above.
__attribute__((nodebug)) uint64_t invalidating_split_count = 0;
