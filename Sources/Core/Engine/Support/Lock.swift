#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
// Where available (not on Apple platforms, nor where the module is not built, as when
// scripts/check-apple-glue emits this module alone), the lock is the C module's futex lock.
#if !canImport(Darwin) && canImport(InvalidatingPrimitives)
  import InvalidatingPrimitives
#endif

/// The engine's mutual-exclusion lock: `os_unfair_lock` on Apple platforms (available since
/// iOS 10 / macOS 10.12, so nothing newer than the package's minimums is needed) and elsewhere
/// a futex lock of our own, a 32-bit word (`invalidating_lock_lock` and
/// `invalidating_lock_unlock` in `Sources/Primitives`).
///
/// Why not `pthread_mutex_t` on Linux: its uncontended lock and unlock are two calls through
/// the PLT and about 50 instructions, most of a `Property.value` read. The futex lock's fast
/// paths are inlined here: locking is one compare-exchange from 0 to 1 (acquire), unlocking
/// one exchange to 0 (release), and only a lock that finds the word taken, or an unlock that
/// finds a thread may be sleeping on it, calls out of line (a short spin, then
/// `FUTEX_WAIT_PRIVATE`; `FUTEX_WAKE_PRIVATE`). While the process has a single thread
/// (glibc's `__libc_single_threaded`) both are a plain load and store instead, as in glibc's
/// own mutex: an atomic read-modify-write costs about 10 ns on the project's machine, and
/// without this a read in a single-threaded program (the benchmark) took more than twice as
/// long as with the mutex, which skips them there too. Every access to the word is a C `__atomic`
/// builtin, so ThreadSanitizer sees the acquire and release and the happens-before they carry.
/// The lock is not recursive, and does not check its owner. (The standard library's `Mutex`
/// asks the kernel for the thread id on every lock and unlock: an uncontended round trip
/// measured 3x slower than the `pthread_mutex_t` here.) Where the C module is not on the
/// import path (scripts/check-apple-glue type-checks this module alone), a `pthread_mutex_t`
/// stands in.
///
/// The lock lives at a stable heap address, as every one of these primitives requires. It is
/// never held while user code runs: the engine takes it for a few loads and stores and releases
/// it before calling any sink, transform or invalidator.
///
/// The primitive sits in the middle of a block of `Lock.blockSize` bytes of its own, at
/// `Lock.primitiveOffset`: wherever `malloc` puts the block (16-byte aligned), the 64-byte cache
/// line that holds the primitive lies inside the block, as the domain's own hot fields lie inside
/// its object (see `Domain`). Every lock and unlock writes the line, so a neighbour in it (the
/// next relay's lock or fields, made right after this one) would send it back and forth between
/// two threads that share nothing (false sharing; two relays written on two threads took twice
/// as long as one thread writing both). A plain `malloc` of the block (16-byte aligned on every
/// platform the package supports) costs a tenth of the cache-line-aligned allocation that gave
/// the same guarantee before, on every relay made.
///
/// A domain keeps the primitive's `Handle` itself (`Handle.make()`, `destroy()`), with no
/// `Lock` object around it; the other users hold a `Lock`.
@usableFromInline
package final class Lock: @unchecked Sendable {
  // Safe: the primitive is allocated once, never reassigned, and only touched through the
  // lock operations, which are thread-safe by definition.

  /// The size of the primitive's block, and where in it the primitive starts: 48 bytes before
  /// and 60 after a 4-byte word keep any 64-byte line that holds it inside the block. (A
  /// debug build records the owner at `Handle.ownerWord`, in the bytes after it.)
  static let blockSize = 112
  static let primitiveOffset = 48
  /// Where a debug build records the lock's owner, from the primitive: in the block's bytes
  /// after it (see `Handle.ownerWord`).
  static let ownerWordOffset = 48

  /// The primitive, borrowed by `handle`.
  @usableFromInline let handle: Handle

  package init() { handle = .make() }

  deinit { handle.destroy() }

  @inlinable @inline(__always)
  package func lock() { handle.lock() }

  @inlinable @inline(__always)
  package func unlock() { handle.unlock() }

  /// The lock's primitive, borrowed: valid for as long as the `Lock` it came from lives. An owner
  /// that keeps the `Lock` alive itself locks through the handle, which costs no reference
  /// counting, where going through the class may retain it around the call.
  @usableFromInline
  package struct Handle: @unchecked Sendable {
    // Safe: as for Lock; the owner keeps the primitive allocated.
    #if canImport(Darwin)
      @usableFromInline typealias Primitive = os_unfair_lock
    #elseif canImport(InvalidatingPrimitives)
      /// 0 unlocked, 1 locked, 2 locked with possibly a thread sleeping on it.
      @usableFromInline typealias Primitive = UInt32
    #else
      @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    @usableFromInline let primitive: UnsafeMutablePointer<Primitive>

    @usableFromInline
    init(primitive: UnsafeMutablePointer<Primitive>) {
      self.primitive = primitive
    }

    /// Allocates and initializes a primitive in a block of its own (see `Lock`); the owner
    /// calls `destroy()` once nothing can use it any more.
    package static func make() -> Handle {
      // `malloc` itself: `UnsafeMutableRawPointer.allocate` of any alignment goes through the
      // runtime's aligned path (`posix_memalign`), about 60 instructions more on every lock made.
      guard let block = malloc(Lock.blockSize) else {
        fatalError("Out of memory: a lock's \(Lock.blockSize) bytes could not be allocated")
      }
      let primitive = (block + Lock.primitiveOffset).bindMemory(to: Primitive.self, capacity: 1)
      initialize(primitive)
      return Handle(primitive: primitive)
    }

    /// Initializes a primitive in memory its owner keeps at a stable address, with at least
    /// `Lock.ownerWordOffset + 8` bytes from `primitive` on (a domain's elements, see `Domain`);
    /// the owner calls `deinitialize()` once nothing can use it any more.
    @usableFromInline
    static func initialize(_ primitive: UnsafeMutablePointer<Primitive>) {
      #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
      #elseif canImport(InvalidatingPrimitives)
        primitive.initialize(to: 0)
      #else
        primitive.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(primitive, nil)
        if result != 0 { fatalError("pthread_mutex_init failed with \(result)") }
      #endif
      #if DEBUG
        Handle(primitive: primitive).ownerWord.initialize(to: 0)
      #endif
    }

    /// Frees the primitive made by `make()`. Call once, when no thread can use it.
    package func destroy() {
      deinitialize()
      free(UnsafeMutableRawPointer(primitive) - Lock.primitiveOffset)
    }

    /// Ends the primitive initialized by `initialize(_:)`, leaving its memory to its owner.
    /// Call once, when no thread can use it.
    func deinitialize() {
      #if !canImport(Darwin) && !canImport(InvalidatingPrimitives)
        pthread_mutex_destroy(primitive)
      #endif
      primitive.deinitialize(count: 1)
    }

    @inlinable @inline(__always)
    package func lock() {
      #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
      #elseif canImport(InvalidatingPrimitives)
        if _slowPath(invalidating_lock_lock(primitive) != 0) { Lock.waitsForItself() }
      #else
        pthread_mutex_lock(primitive)
      #endif
      #if DEBUG
        recordedOwner = Self.currentThreadWord
        Self.countHeld(1)
      #endif
    }

    /// Locks the primitive if it is free, without waiting; returns whether it did. For a check
    /// made while holding another domain's lock, where waiting could deadlock (see
    /// `Domain.lockForwardedRoot()`).
    @inlinable @inline(__always)
    package func tryLock() -> Bool {
      #if canImport(Darwin)
        let locked = os_unfair_lock_trylock(primitive)
      #elseif canImport(InvalidatingPrimitives)
        let locked = invalidating_lock_trylock(primitive) != 0
      #else
        let locked = pthread_mutex_trylock(primitive) == 0
      #endif
      #if DEBUG
        if locked {
          recordedOwner = Self.currentThreadWord
          Self.countHeld(1)
        }
      #endif
      return locked
    }

    @inlinable @inline(__always)
    package func unlock() {
      #if DEBUG
        assertOwned()
        recordedOwner = 0
        Self.countHeld(-1)
      #endif
      #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
      #elseif canImport(InvalidatingPrimitives)
        invalidating_lock_unlock(primitive)
      #else
        pthread_mutex_unlock(primitive)
      #endif
    }
  }
}

/// A one-thread wake-up signal: `park()` blocks until `unpark()` was called (before or after),
/// once per call. The domain's waiting writers use it.
final class Parker: @unchecked Sendable {
  // Safe: `isSignalled` is only touched with `mutex` held; the primitives are allocated once
  // and used only through their thread-safe operations.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var isSignalled = false

  init() {
    mutex.initialize(to: pthread_mutex_t())
    condition.initialize(to: pthread_cond_t())
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Blocks until `unpark()` is called, unless it already was since the last `park()`.
  func park() {
    pthread_mutex_lock(mutex)
    while !isSignalled { pthread_cond_wait(condition, mutex) }
    isSignalled = false
    pthread_mutex_unlock(mutex)
  }

  /// Wakes the thread parked here, or lets its next `park()` return at once.
  func unpark() {
    pthread_mutex_lock(mutex)
    isSignalled = true
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }
}

extension Lock {
  /// Stops a lock that would wait for itself: the calling thread holds it, running user code
  /// under it (see `Handle.holdForUserCode()`).
  @usableFromInline @inline(never)
  static func waitsForItself() -> Never {
    Engine.misuse(
      """
      A modify body read, wrote or subscribed to a property of the graph it modifies: the body \
      runs while that graph's lock is held (that is what makes modify atomic), so the access \
      would wait for itself for ever. Read what the body needs before calling modify, and \
      write or subscribe to other properties after it returns.
      """)
  }
}

extension Lock.Handle {
  /// Records that the calling thread, which holds this lock, now runs user code under it (the
  /// body of a `modify`), so that a lock of it from that code stops with a message rather than
  /// waiting for ever (on Linux; Apple's `os_unfair_lock` stops a recursive lock itself).
  /// Returns what to pass to `endUserCode(_:)`.
  @inlinable @inline(__always)
  package func holdForUserCode() -> UnsafeMutableRawPointer? {
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      return UnsafeMutableRawPointer(invalidating_lock_set_held_for_user_code(primitive))
    #else
      return nil
    #endif
  }

  /// Ends what `holdForUserCode()` began; `previous` is what it returned.
  @inlinable @inline(__always)
  package func endUserCode(_ previous: UnsafeMutableRawPointer?) {
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      _ = invalidating_lock_set_held_for_user_code(
        previous?.assumingMemoryBound(to: UInt32.self))
    #endif
  }
}
