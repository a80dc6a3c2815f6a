// The calling thread's engine context (see ThreadContext.swift), in a C thread-local variable:
// Swift has no thread-local storage of its own on Linux, and `pthread_getspecific` costs a call
// and a lazily made key on every write and subscription. With the initial-exec model the read
// inlined into Swift is two instructions (an offset from the thread pointer, then a load).
//
// Apple platforms keep `pthread_getspecific` (cheap there), so nothing is declared for them.
#ifndef INVALIDATING_THREAD_LOCAL_H
#define INVALIDATING_THREAD_LOCAL_H

#if !defined(__APPLE__)

/// The calling thread's `ThreadContext`, retained by its pthread key (whose destructor clears
/// this at thread exit), or null before the thread's first use of the engine.
///
/// Initial-exec: the library is linked into the program (SwiftPM links statically on Linux),
/// or loaded with it; a library opened later with dlopen takes these eight bytes from the
/// static TLS space glibc reserves for such libraries.
extern __thread void *_Nullable invalidating_thread_context
    __attribute__((tls_model("initial-exec")));

/// Reads `invalidating_thread_context` (Swift cannot import a thread-local variable itself).
static inline __attribute__((always_inline)) void *_Nullable invalidating_thread_context_get(
    void) {
  return invalidating_thread_context;
}

/// Writes `invalidating_thread_context`.
static inline __attribute__((always_inline)) void invalidating_thread_context_set(
    void *_Nullable context) {
  invalidating_thread_context = context;
}

#endif

#endif
