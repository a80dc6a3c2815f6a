// swift-format-ignore-file: TypeNamesShouldBeCapitalized, AlwaysUseLowerCamelCase
// (The names are C's, as Darwin spells them.)

// A stand-in for Apple's `Darwin` module: the C library of this machine, plus the few Darwin
// declarations the package's `#if canImport(Darwin)` branches use, with the SDK's Swift
// signatures. Type-checking only: nothing here is linked or run.

@_exported import Glibc

/// Darwin's lightweight lock (`os/lock.h`): a 32-bit word, zero when unlocked.
public struct os_unfair_lock {
  /// The lock word.
  public var _os_unfair_lock_opaque: UInt32

  /// An unlocked lock.
  public init() { _os_unfair_lock_opaque = 0 }
}

/// The pointer type Darwin's lock functions take.
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock>

/// Locks `lock`, waiting while another thread holds it.
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) {}

/// Unlocks `lock`; the caller must hold it.
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) {}

/// Whether the calling thread is the process's main thread (non-zero when it is).
public func pthread_main_np() -> Int32 { 0 }

/// Darwin's `pthread_key_create`: unlike glibc's, the destructor receives a non-optional pointer.
public func pthread_key_create(
  _ key: UnsafeMutablePointer<pthread_key_t>!,
  _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)!
) -> Int32 { 0 }
