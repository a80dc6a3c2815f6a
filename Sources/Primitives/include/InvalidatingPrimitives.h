// The engine's primitives written in C, for what Swift cannot express cheaply or at all:
//
// - The calling thread's engine context (see ThreadContext.swift), in a C thread-local
//   variable: Swift has no thread-local storage of its own on Linux, and `pthread_getspecific`
//   costs a call and a lazily made key on every write and subscription. With the initial-exec
//   model the read inlined into Swift is two instructions (an offset from the thread pointer,
//   then a load).
// - The engine's lock (see Lock.swift), a futex-based mutex: its uncontended lock and unlock
//   are one atomic instruction each (a plain load or store while the process has one thread),
//   inlined into Swift, where a `pthread_mutex_t` round trip is two calls through the PLT and
//   about 50 instructions.
//
// Apple platforms keep `pthread_getspecific` and `os_unfair_lock` (cheap there), so neither is
// declared for them. On every platform: the count of domain splits (at the end), an atomic
// counter that Swift has no portable way to keep before Apple's 2024 systems, and the debug
// guards' words (the lock's owner, the locks a thread holds; see Engine+Guards.swift).
#ifndef INVALIDATING_PRIMITIVES_H
#define INVALIDATING_PRIMITIVES_H

#if !defined(__APPLE__)

#include <stdint.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
#include <sys/single_threaded.h>
#endif

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

// The lock: a 32-bit word, 0 unlocked, 1 locked, 2 locked with possibly a thread waiting on
// it in the kernel (mutex 3 of Ulrich Drepper's "Futexes Are Tricky"). A zeroed word is an
// unlocked lock; it needs no destruction. The word must stay at one address while any thread
// may use it, and be shared by threads of one process only (the futex calls are private).
//
// Every access is a GCC/Clang `__atomic` builtin: lock acquires and unlock releases, which is
// the happens-before edge ThreadSanitizer sees (it does not see the futex calls, nor need to).
// While the process has only one thread there is no one to order with, and the fast paths
// use relaxed loads and stores instead (see `invalidating_lock_lock`).

/// The lock the calling thread holds while it runs user code under it (a `modify` body, the
/// one place the engine does), or null: a lock of it that finds the word taken would wait for
/// itself for ever.
extern __thread uint32_t *_Nullable invalidating_lock_held_for_user_code
    __attribute__((tls_model("initial-exec")));

/// How many engine locks the calling thread holds, counted by debug builds only (see
/// `Engine+Guards.swift`): the check that no lock is held before user code runs.
extern __thread intptr_t invalidating_debug_locks_held __attribute__((tls_model("initial-exec")));

/// Adds `delta` to `invalidating_debug_locks_held`; returns the new count.
static inline __attribute__((always_inline)) intptr_t invalidating_debug_locks_add(
    intptr_t delta) {
  invalidating_debug_locks_held += delta;
  return invalidating_debug_locks_held;
}

/// Writes the calling thread's call stack to standard error, where glibc can unwind it (else
/// nothing): what a debug build's broken engine rule prints before it stops, so that a stop
/// seen once in CI names its caller even where Swift's own backtracer cannot run.
void invalidating_debug_print_backtrace(void);

/// Sets `invalidating_lock_held_for_user_code`; returns what it was.
static inline __attribute__((always_inline)) uint32_t *_Nullable
invalidating_lock_set_held_for_user_code(uint32_t *_Nullable state) {
  uint32_t *previous = invalidating_lock_held_for_user_code;
  invalidating_lock_held_for_user_code = state;
  return previous;
}

/// Locks `state` after its fast path failed: spins briefly, then sleeps in the kernel until
/// the word is released. Out of line: only contention comes here. Returns 0 once locked, or 1
/// without locking when `state` is `invalidating_lock_held_for_user_code`: the calling thread
/// holds it, and would wait for itself.
int invalidating_lock_lock_contended(uint32_t *_Nonnull state);

/// Wakes one thread sleeping on `state`, after an unlock found the word at 2.
void invalidating_lock_wake(uint32_t *_Nonnull state);

/// True when the calling thread is the process's only thread: glibc's `__libc_single_threaded`,
/// false from the first `pthread_create` on. Elsewhere (musl, glibc before 2.32) always false.
static inline __attribute__((always_inline)) int invalidating_lock_single_threaded(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  return __libc_single_threaded;
#else
  return 0;
#endif
}

/// Locks `state`: one compare-exchange from 0 to 1 (acquire) when the lock is free, the
/// out-of-line slow path otherwise. Not recursive. Returns 0 once locked, 1 for a lock that
/// would wait for itself (see `invalidating_lock_lock_contended`).
///
/// While the process has one thread, no other thread can see the word, so a free lock is taken
/// with a plain load and store instead, as glibc's own `pthread_mutex_lock` does: an atomic
/// read-modify-write costs tens of cycles. (A thread made later synchronizes with its maker,
/// and finds the word as the maker left it.)
static inline __attribute__((always_inline)) int invalidating_lock_lock(
    uint32_t *_Nonnull state) {
  if (invalidating_lock_single_threaded() && __atomic_load_n(state, __ATOMIC_RELAXED) == 0) {
    __atomic_store_n(state, 1, __ATOMIC_RELAXED);
    return 0;
  }
  uint32_t expected = 0;
  if (__builtin_expect(!__atomic_compare_exchange_n(state, &expected, 1, 0, __ATOMIC_ACQUIRE,
                                                    __ATOMIC_RELAXED),
                       0)) {
    return invalidating_lock_lock_contended(state);
  }
  return 0;
}

/// Locks `state` if it is free, without waiting: one compare-exchange from 0 to 1 (acquire), a
/// plain load and store while the process has one thread. Returns 1 if it locked, 0 if the
/// lock was taken. For the engine's one wait-free check holding another lock (a split domain's
/// forwarding chain, see `Domain.lockForwardedRoot` in the engine), where waiting could deadlock.
static inline __attribute__((always_inline)) int invalidating_lock_trylock(
    uint32_t *_Nonnull state) {
  if (invalidating_lock_single_threaded()) {
    if (__atomic_load_n(state, __ATOMIC_RELAXED) != 0) {
      return 0;
    }
    __atomic_store_n(state, 1, __ATOMIC_RELAXED);
    return 1;
  }
  uint32_t expected = 0;
  return __atomic_compare_exchange_n(state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/// Unlocks `state`, which the calling thread locked: one exchange to 0 (release), and a wake-up
/// call only if a thread may be waiting. While the process has one thread, nobody waits: a
/// plain store.
static inline __attribute__((always_inline)) void invalidating_lock_unlock(
    uint32_t *_Nonnull state) {
  if (invalidating_lock_single_threaded()) {
    __atomic_store_n(state, 0, __ATOMIC_RELAXED);
    return;
  }
  if (__builtin_expect(__atomic_exchange_n(state, 0, __ATOMIC_RELEASE) == 2, 0)) {
    invalidating_lock_wake(state);
  }
}

/// The word's current value (0, 1 or 2), with no ordering: for tests that wait until a thread
/// sleeps on the lock. The engine never reads it.
static inline __attribute__((always_inline)) uint32_t invalidating_lock_load(
    uint32_t *_Nonnull state) {
  return __atomic_load_n(state, __ATOMIC_RELAXED);
}

#endif

// On every platform: the count of domain splits (see `Domain+Split.swift` in the engine).

#include <stdint.h>

/// How many times the engine has cut a merged domain off its tree, process-wide: a walk up a
/// forwarding chain that reads the same count before it starts and once it holds the root knows
/// that no split cut the chain behind it (see `Domain.lockForwardedRoot` in the engine).
/// Written only by splits; read with the atomic functions below.
extern uint64_t invalidating_split_count;

/// Reads `invalidating_split_count` (acquire: a split's writes before its increment are seen).
static inline __attribute__((always_inline)) uint64_t invalidating_split_count_load(void) {
  return __atomic_load_n(&invalidating_split_count, __ATOMIC_ACQUIRE);
}

/// Adds one to `invalidating_split_count` (release), after a split and before its root's lock
/// is let go.
static inline __attribute__((always_inline)) void invalidating_split_count_increment(void) {
  __atomic_fetch_add(&invalidating_split_count, 1, __ATOMIC_RELEASE);
}

/// A word published by one thread and read by others without a lock: a `Property`'s
/// reference to what shows its reads to Observation (see `ObservationVisibility.swift` in the
/// engine), written once, after the object it refers to is made.
static inline __attribute__((always_inline)) uintptr_t invalidating_word_load_acquire(
    uintptr_t *_Nonnull word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline __attribute__((always_inline)) void invalidating_word_store_release(
    uintptr_t *_Nonnull word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// A source's newest value read without its lock, when the value is plain data in one naturally
/// aligned word of 1, 2, 4 or 8 bytes (see `SourceNode.readsLatestWithoutLock` in the engine):
/// every write of the value, made under the lock, is an atomic store of the whole word, so a load
/// returns one write whole and, with it, whatever its writer did before it. Sequentially
/// consistent, not acquire and release: with RCpc (Apple silicon) an acquire load (`LDAPR`) may
/// pass the thread's own earlier store-release of another word, so two threads that each write
/// one relay and read the other could both read the old values, which locked reads forbid. One
/// function a width; the engine picks one by the value's size, a constant once it is
/// specialized.
static inline __attribute__((always_inline)) uint64_t invalidating_value_load_8(
    const uint64_t *_Nonnull word) {
  return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) uint32_t invalidating_value_load_4(
    const uint32_t *_Nonnull word) {
  return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) uint16_t invalidating_value_load_2(
    const uint16_t *_Nonnull word) {
  return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) uint8_t invalidating_value_load_1(
    const uint8_t *_Nonnull word) {
  return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

/// The order of the stores of such a value (see `invalidating_value_load_8`): sequentially
/// consistent, except on x86-64, where that would make every store an `XCHG` (about 5 ns more a
/// write with threads present, a tenth of a set with one subscriber) for nothing: the store is
/// made under the source's lock, and the unlock that follows it is a locked read-modify-write,
/// which drains the store buffer before any later load of the thread, so a release store (a
/// plain `MOV`) already forbids store buffering there.
#if defined(__x86_64__)
#define INVALIDATING_VALUE_STORE_ORDER __ATOMIC_RELEASE
#else
#define INVALIDATING_VALUE_STORE_ORDER __ATOMIC_SEQ_CST
#endif

/// Writes such a value (see `invalidating_value_load_8`), in `INVALIDATING_VALUE_STORE_ORDER`.
static inline __attribute__((always_inline)) void invalidating_value_store_8(
    uint64_t *_Nonnull word, uint64_t value) {
  __atomic_store_n(word, value, INVALIDATING_VALUE_STORE_ORDER);
}

static inline __attribute__((always_inline)) void invalidating_value_store_4(
    uint32_t *_Nonnull word, uint32_t value) {
  __atomic_store_n(word, value, INVALIDATING_VALUE_STORE_ORDER);
}

static inline __attribute__((always_inline)) void invalidating_value_store_2(
    uint16_t *_Nonnull word, uint16_t value) {
  __atomic_store_n(word, value, INVALIDATING_VALUE_STORE_ORDER);
}

static inline __attribute__((always_inline)) void invalidating_value_store_1(
    uint8_t *_Nonnull word, uint8_t value) {
  __atomic_store_n(word, value, INVALIDATING_VALUE_STORE_ORDER);
}

/// The debug record of a lock's owner (see `Engine+Guards.swift`), read and written without
/// ordering: a thread reads its own writes, and reads another's only to see that it is not
/// itself. Atomic so that ThreadSanitizer takes the unlocked reads for what they are.
static inline __attribute__((always_inline)) uintptr_t invalidating_debug_owner_load(
    uintptr_t *_Nonnull word) {
  return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void invalidating_debug_owner_store(
    uintptr_t *_Nonnull word, uintptr_t owner) {
  __atomic_store_n(word, owner, __ATOMIC_RELAXED);
}

/// Whether `object`, a native Swift object, has one strong reference: the Swift runtime's own
/// test, which `isKnownUniquelyReferenced` calls too. Swift asks it of a variable only; a node
/// asks it of its home domain, a `let` (a `var` field would be retained around every call that
/// reads it; see `Engine.isHeldOnce` in the engine).
extern _Bool swift_isUniquelyReferenced_nonNull_native(const void *_Nonnull object);

static inline __attribute__((always_inline)) _Bool invalidating_is_uniquely_referenced(
    const void *_Nonnull object) {
  return swift_isUniquelyReferenced_nonNull_native(object);
}

#endif
