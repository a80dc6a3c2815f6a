// swift-format-ignore-file: TypeNamesShouldBeCapitalized, AlwaysUseLowerCamelCase
// (The names are C's, as Darwin spells them.)

// A stand-in for Apple's `Darwin` module: the C library of this machine, plus the few Darwin
// declarations the package's `#if canImport(Darwin)` branches use, with the SDK's Swift
// signatures. Type-checking only: nothing here is linked or run.

@_exported import Glibc

/// Darwin's lightweight lock (`os/lock.h`): a 32-bit word, zero when unlocked. C's
/// `struct os_unfair_lock_s`, with its typedef `os_unfair_lock`, as the SDK imports them.
public struct os_unfair_lock_s {
  /// The lock word.
  public var _os_unfair_lock_opaque: UInt32

  /// An unlocked lock.
  public init() { _os_unfair_lock_opaque = 0 }
}

/// The name C code uses for ``os_unfair_lock_s``.
public typealias os_unfair_lock = os_unfair_lock_s

/// The pointer type Darwin's lock functions take.
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>

/// Locks `lock`, waiting while another thread holds it. Unavailable from async code, as
/// `os/lock.h` marks it (`OS_SWIFT_UNAVAILABLE_FROM_ASYNC`).
@available(*, noasync, message: "stand-in: os/lock.h marks os_unfair_lock_lock noasync")
public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) {}

/// Unlocks `lock`; the caller must hold it. Unavailable from async code, as `os/lock.h`
/// marks it.
@available(*, noasync, message: "stand-in: os/lock.h marks os_unfair_lock_unlock noasync")
public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) {}

/// Locks `lock` if no thread holds it, without waiting; returns whether it did. Unavailable
/// from async code, as `os/lock.h` marks it.
@available(*, noasync, message: "stand-in: os/lock.h marks os_unfair_lock_trylock noasync")
public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { true }

/// Whether the calling thread is the process's main thread (non-zero when it is).
public func pthread_main_np() -> Int32 { 0 }

/// Darwin's `pthread_key_create`: unlike glibc's, the destructor receives a non-optional pointer.
public func pthread_key_create(
  _ key: UnsafeMutablePointer<pthread_key_t>!,
  _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)!
) -> Int32 { 0 }
