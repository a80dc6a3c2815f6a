// The engine's lock (Sources/Primitives) built as it is on a platform without a futex, where a
// waiting thread yields instead of sleeping in the kernel: scripts/check-lock-fallback compiles
// this with -DINVALIDATING_LOCK_YIELD, and once without it (the futex lock), and runs both.
//
// Two checks, each printing what it saw: threads that increment one plain counter under the
// lock lose no increment; and a thread that finds the lock held marks the word 2, waits, and
// then sees what the holder wrote before its unlock.
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>

#include "InvalidatingPrimitives.h"

enum { threads = 4, increments = 200000 };

static uint32_t lock_word;
static long counter;
static int holder_value;
static int waiter_saw = -1;
static volatile int waiter_started;

static void *increment(void *unused) {
  (void)unused;
  for (int i = 0; i < increments; i++) {
    invalidating_lock_lock(&lock_word);
    counter++;
    invalidating_lock_unlock(&lock_word);
  }
  return 0;
}

static void *wait_for_holder(void *unused) {
  (void)unused;
  __atomic_store_n(&waiter_started, 1, __ATOMIC_RELEASE);
  invalidating_lock_lock(&lock_word);
  waiter_saw = holder_value;
  invalidating_lock_unlock(&lock_word);
  return 0;
}

int main(void) {
  pthread_t workers[threads];
  for (int i = 0; i < threads; i++) pthread_create(&workers[i], 0, increment, 0);
  for (int i = 0; i < threads; i++) pthread_join(workers[i], 0);
  printf("increments: %ld of %d\n", counter, threads * increments);

  invalidating_lock_lock(&lock_word);
  pthread_t waiter;
  pthread_create(&waiter, 0, wait_for_holder, 0);
  while (!__atomic_load_n(&waiter_started, __ATOMIC_ACQUIRE)) sched_yield();
  // The waiter has given up spinning once the word reads 2: the unlock must let it in.
  while (invalidating_lock_load(&lock_word) != 2) sched_yield();
  holder_value = 42;
  invalidating_lock_unlock(&lock_word);
  pthread_join(waiter, 0);
  printf("waiter saw: %d; word after: %u\n", waiter_saw, invalidating_lock_load(&lock_word));
  return counter == (long)threads * increments && waiter_saw == 42 &&
                 invalidating_lock_load(&lock_word) == 0
             ? 0
             : 1;
}
