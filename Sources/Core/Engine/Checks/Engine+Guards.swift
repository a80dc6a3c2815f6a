#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
#if !canImport(Darwin) && canImport(InvalidatingPrimitives)
  import InvalidatingPrimitives
#endif

// The engine's rules of access, as checks. A field or function documented "Lock." needs the
// root domain's lock, "Role." the domain's drainer role (see `Domain`); these assertions say so
// in code, so that a call that breaks the rule stops where it breaks it, in debug builds.
// Release builds compile none of it: every function here is empty there, and inlined away.

extension Lock.Handle {
  /// Where a debug build records the thread that holds the lock: `Lock.ownerWordOffset` bytes
  /// after the primitive, in its block (see `Lock.blockSize`), which nothing else uses.
  @usableFromInline var ownerWord: UnsafeMutablePointer<UInt> {
    (UnsafeMutableRawPointer(primitive) + Lock.ownerWordOffset).assumingMemoryBound(
      to: UInt.self)
  }

  /// The thread `ownerWord` records (0: none). Relaxed atomic where the C helpers are built,
  /// so that ThreadSanitizer does not report the guards' unlocked reads as races.
  @inlinable @inline(__always)
  var recordedOwner: UInt {
    get {
      #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
        UInt(invalidating_debug_owner_load(ownerWord))
      #else
        ownerWord.pointee
      #endif
    }
    nonmutating set {
      #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
        invalidating_debug_owner_store(ownerWord, newValue)
      #else
        ownerWord.pointee = newValue
      #endif
    }
  }

  /// Counts a lock the calling thread took (1) or let go (-1), where the C helpers are built.
  @inlinable @inline(__always)
  static func countHeld(_ delta: Int) {
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      _ = invalidating_debug_locks_add(delta)
    #endif
  }

  /// Whether the calling thread holds any engine lock: `nil` where it is not counted.
  @inlinable @inline(__always)
  static var holdsAnyLock: Bool? {
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      invalidating_debug_locks_add(0) > 0
    #else
      nil
    #endif
  }

  /// How many engine locks the calling thread holds, where they are counted (else 0).
  @usableFromInline static var heldCount: Int {
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      invalidating_debug_locks_add(0)
    #else
      0
    #endif
  }

  /// The calling thread, as `ownerWord` records it.
  @usableFromInline static var currentThreadWord: UInt {
    // A pointer on Apple platforms, an integer on Linux: the word, either way.
    withUnsafeBytes(of: pthread_self()) { $0.load(as: UInt.self) }
  }

  /// Stops unless the calling thread holds this lock. Debug builds only.
  ///
  /// The owner is read without ordering: if the calling thread holds the lock, it wrote the
  /// word itself after locking; if it does not, the word holds another thread or nothing,
  /// and the check fails either way.
  @inlinable @inline(__always)
  package func assertOwned(_ function: StaticString = #function, line: UInt = #line) {
    #if DEBUG
      if recordedOwner != Self.currentThreadWord {
        Engine.ruleBroken(
          "\(function) needs the domain's lock, and the calling thread does not hold it", line: line
        )
      }
    #endif
  }

  /// Stops if the calling thread holds this lock. Debug builds only.
  @inlinable @inline(__always)
  package func assertNotOwned(_ function: StaticString = #function, line: UInt = #line) {
    #if DEBUG
      if recordedOwner == Self.currentThreadWord {
        Engine.ruleBroken("\(function) must not be called with the domain's lock held", line: line)
      }
    #endif
  }
}

extension Domain {
  /// Stops unless this domain is a root and the calling thread holds its lock. Debug only.
  @inlinable @inline(__always)
  func assertLockedRoot(_ function: StaticString = #function, line: UInt = #line) {
    #if DEBUG
      lock.assertOwned(function, line: line)
      if isForwarded {
        Engine.ruleBroken(
          "\(function) was given a domain merged into another, not the root", line: line)
      }
    #endif
  }

  /// Stops unless the calling thread holds this root's lock and its drainer role. Debug only.
  @inlinable @inline(__always)
  func assertRole(
    _ context: ThreadContext, _ function: StaticString = #function, line: UInt = #line
  ) {
    #if DEBUG
      assertLockedRoot(function, line: line)
      checkRole(context, function, line: line)
    #endif
  }
}

#if DEBUG
  extension Domain {
    /// Stops unless `context` is one of this root's drainers; the caller holds the lock.
    @usableFromInline
    func checkRole(_ context: ThreadContext, _ function: StaticString, line: UInt) {
      if !role.drainers.contains(context.id) {
        Engine.ruleBroken(
          "\(function) needs the domain's drainer role, held by another thread or none",
          line: line)
      }
    }
  }
#endif

extension Domain {
  /// Stops unless the calling thread, which does not hold the lock, holds the drainer role of
  /// this domain's root. Takes the lock. Debug only.
  @inlinable @inline(__always)
  func assertRoleUnlocked(
    _ context: ThreadContext, _ function: StaticString = #function, line: UInt = #line
  ) {
    #if DEBUG
      let root = lockRoot()
      root.checkRole(context, function, line: line)
      root.lock.unlock()
    #endif
  }
}

extension AnyNode {
  /// Stops unless the calling thread holds the lock of this node's root domain. Debug only.
  ///
  /// The forwarding chain is read without its locks: while the root's lock is held, no domain
  /// on the chain below it can change (a merge changes roots only, under their locks); if it is
  /// not held, the check fails.
  @inlinable @inline(__always)
  final func assertLocked(_ function: StaticString = #function, line: UInt = #line) {
    #if DEBUG
      debugRoot().assertLockedRoot(function, line: line)
    #endif
  }

  /// Stops unless the calling thread holds this node's root lock and its drainer role. Debug
  /// only.
  @inlinable @inline(__always)
  final func assertRoleLocked(_ function: StaticString = #function, line: UInt = #line) {
    #if DEBUG
      debugRoot().assertRole(ThreadContext.current, function, line: line)
    #endif
  }

  /// Stops unless the calling thread, which does not hold the lock, holds the drainer role of
  /// this node's root domain. Takes the lock. Debug only.
  @inlinable @inline(__always)
  final func assertRole(_ function: StaticString = #function, line: UInt = #line) {
    #if DEBUG
      checkRoleUnlocked(function, line: line)
    #endif
  }

  /// Stops unless the calling thread holds a drainer role: the cheap form of `assertRole()` for
  /// the steps a delivery runs per node, which takes no lock. Debug only.
  @inlinable @inline(__always)
  final func assertDelivering(
    _ context: ThreadContext, _ function: StaticString = #function, line: UInt = #line
  ) {
    #if DEBUG
      if context.role.held <= 0 {
        Engine.ruleBroken(
          "\(function) runs in a delivery, and this thread delivers nothing", line: line)
      }
    #endif
  }

  /// Stops if the calling thread holds the lock of this node's root domain: before a call that
  /// takes it, or runs user code. Debug only.
  @inlinable @inline(__always)
  final func assertUnlocked(_ function: StaticString = #function, line: UInt = #line) {
    #if DEBUG
      // Where the thread's locks are counted, none may be held (reading the chain without
      // its locks would race with merges); elsewhere, the root's lock is looked for.
      if let holdsAny = Lock.Handle.holdsAnyLock {
        if holdsAny {
          let whose =
            debugRoot().lock.recordedOwner == Lock.Handle.currentThreadWord
            ? "this node's domain's among them"
            : "none of them this node's domain's: another domain's, or a lock outside the "
              + "engine such as a test's"
          Engine.ruleBroken(
            "\(function) must not be called with a domain's lock held "
              + "(\(Lock.Handle.heldCount) engine locks held; \(whose))", line: line)
        }
      } else {
        debugRoot().lock.assertNotOwned(function, line: line)
      }
    #endif
  }

  #if DEBUG
    /// `assertRole()`'s check, out of line.
    @usableFromInline
    final func checkRoleUnlocked(_ function: StaticString, line: UInt) {
      let root = home.lockRoot()
      root.checkRole(ThreadContext.current, function, line: line)
      root.lock.unlock()
    }

    /// The root of this node's domain, found by following the forwarding chain without its
    /// locks (see `assertLocked`).
    @usableFromInline
    final func debugRoot() -> Domain {
      var domain = home
      while let next = domain.forward { domain = next }
      return domain
    }
  #endif
}

extension Engine {
  /// Stops a debug build whose engine broke one of its own rules of access: a defect in the
  /// engine, not a misuse (those go through `misuse(_:)`).
  @usableFromInline
  static func ruleBroken(_ message: String, line: UInt) -> Never {
    #if !canImport(Darwin) && canImport(InvalidatingPrimitives)
      invalidating_debug_print_backtrace()
    #endif
    fatalError("Engine rule broken: \(message)", line: line)
  }
}
