#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The engine's mutual-exclusion lock: `os_unfair_lock` on Apple platforms (available since
/// iOS 10 / macOS 10.12, so nothing newer than the package's minimums is needed) and a
/// `pthread_mutex_t` elsewhere.
///
/// The lock lives at a stable heap address, as both primitives require. It is never held while
/// user code runs: the engine takes it for a few loads and stores and releases it before calling
/// any sink, transform or invalidator.
@usableFromInline
package final class Lock: @unchecked Sendable {
  // Safe: the pointer is allocated once, never reassigned, and only touched through the
  // lock primitives, which are thread-safe by definition.
  #if canImport(Darwin)
    @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
  #else
    @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
  #endif

  package init() {
    #if canImport(Darwin)
      primitive = .allocate(capacity: 1)
      primitive.initialize(to: os_unfair_lock())
    #else
      primitive = .allocate(capacity: 1)
      primitive.initialize(to: pthread_mutex_t())
      let result = pthread_mutex_init(primitive, nil)
      precondition(result == 0, "pthread_mutex_init failed with \(result)")
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(primitive)
    #endif
    primitive.deinitialize(count: 1)
    primitive.deallocate()
  }

  @inlinable @inline(__always)
  package func lock() {
    #if canImport(Darwin)
      os_unfair_lock_lock(primitive)
    #else
      pthread_mutex_lock(primitive)
    #endif
  }

  @inlinable @inline(__always)
  package func unlock() {
    #if canImport(Darwin)
      os_unfair_lock_unlock(primitive)
    #else
      pthread_mutex_unlock(primitive)
    #endif
  }

  /// A borrowed view of this lock for an owner that keeps the lock alive itself: locking
  /// through it costs no reference counting, where going through the class may retain it
  /// around the call.
  @inlinable
  package var handle: Handle { Handle(primitive: primitive) }

  /// The lock's primitive, borrowed: valid for as long as the `Lock` it came from lives.
  @usableFromInline
  package struct Handle: @unchecked Sendable {
    // Safe: as for Lock; the owner keeps the primitive allocated.
    #if canImport(Darwin)
      @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
      @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    #if canImport(Darwin)
      @inlinable init(primitive: UnsafeMutablePointer<os_unfair_lock>) {
        self.primitive = primitive
      }
    #else
      @inlinable init(primitive: UnsafeMutablePointer<pthread_mutex_t>) {
        self.primitive = primitive
      }
    #endif

    @inlinable @inline(__always)
    package func lock() {
      #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
      #else
        pthread_mutex_lock(primitive)
      #endif
    }

    @inlinable @inline(__always)
    package func unlock() {
      #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
      #else
        pthread_mutex_unlock(primitive)
      #endif
    }
  }
}
