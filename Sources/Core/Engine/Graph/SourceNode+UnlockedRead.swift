// A source's value read without the lock: for plain one-word values, `latest` is stored and
// loaded as one atomic word (see `SourceNode.readsLatestWithoutLock`).

#if canImport(InvalidatingPrimitives)
  import InvalidatingPrimitives
#endif

extension SourceNode {
  /// Whether `latest` is read without the lock: when the value is plain data in one naturally
  /// aligned word of 1, 2, 4 or 8 bytes (`Int`, `Double`, `Bool`, `CGFloat`, a small enum),
  /// where one atomic load returns one write whole. Every write of `latest` is then an atomic
  /// store of the word (`replaceLatest(_:)`; sequentially consistent, or release on x86-64,
  /// see `INVALIDATING_VALUE_STORE_ORDER`), made under the lock as before, and a read a
  /// sequentially consistent load (see `loadWord(at:)`): no lock round
  /// trip, which with threads present costs two atomic read-modify-writes. A read returns the
  /// newest write, as with the lock: the word holds it from the store on, and a thread's load
  /// sees its own writes, everything a writer did before the write it returns, and, after the
  /// thread's own write of another relay, no value older than one that write could not have
  /// preceded (no store buffering). Other values (references, strings, wider structs) take
  /// the lock: copying them means retaining what they hold, which is only safe while no write
  /// can release it. A constant once `Value` is known.
  @inlinable @inline(__always)
  static var readsLatestWithoutLock: Bool {
    #if canImport(InvalidatingPrimitives)
      let size = MemoryLayout<Value>.size
      return _isPOD(Value.self) && (size == 1 || size == 2 || size == 4 || size == 8)
        && MemoryLayout<Value>.alignment >= size
    #else
      return false
    #endif
  }

  /// `latest`, read with one atomic load of its word. Only when `readsLatestWithoutLock`.
  ///
  /// `&latest` is passed as a pointer argument, not through `withUnsafeMutablePointer(to:)`:
  /// an `inout` argument is a modifying access, which ThreadSanitizer instruments as a plain
  /// write of the word (`__tsan_external_write`), a race with every concurrent atomic store
  /// and load; a pointer conversion is not instrumented, and passes the property's address.
  @inlinable @inline(__always)
  final func latestWithoutLock() -> Value {
    Self.loadWord(at: &latest)
  }

  /// The value at `address` (`latest`), one atomic load of its word. Sequentially consistent,
  /// not just acquire: on ARM64 with RCpc (every Apple silicon Mac, where `-target-cpu` is
  /// `apple-m1`) an acquire load is `LDAPR`, which may be satisfied before the thread's own
  /// earlier store-release of another relay's word, so two threads that each write one relay
  /// and read the other could both read the old value (store buffering), which two locked
  /// reads forbid. `LDAR` (sequentially consistent) is ordered after an earlier `STLR`.
  @inlinable @inline(__always)
  static func loadWord(at address: UnsafeMutablePointer<Value>) -> Value {
    #if canImport(InvalidatingPrimitives)
      // One branch survives specialization; `unsafeBitCast` checks the sizes match.
      let raw = UnsafeRawPointer(address)
      switch MemoryLayout<Value>.size {
      case 8:
        let word = raw.assumingMemoryBound(to: UInt64.self)
        return unsafeBitCast(invalidating_value_load_8(word), to: Value.self)
      case 4:
        let word = raw.assumingMemoryBound(to: UInt32.self)
        return unsafeBitCast(invalidating_value_load_4(word), to: Value.self)
      case 2:
        let word = raw.assumingMemoryBound(to: UInt16.self)
        return unsafeBitCast(invalidating_value_load_2(word), to: Value.self)
      default:
        let word = raw.assumingMemoryBound(to: UInt8.self)
        return unsafeBitCast(invalidating_value_load_1(word), to: Value.self)
      }
    #else
      fatalError("SourceNode reads its value without the lock only where the primitives are")
    #endif
  }

  /// Stores `value` at `address` (`latest`), one atomic store of its word: sequentially
  /// consistent, but on x86-64, where the lock's unlock after it orders it before the thread's
  /// later loads (see `INVALIDATING_VALUE_STORE_ORDER` and `loadWord(at:)`).
  @inlinable @inline(__always)
  static func storeWord(_ value: Value, at address: UnsafeMutablePointer<Value>) {
    #if canImport(InvalidatingPrimitives)
      let raw = UnsafeMutableRawPointer(address)
      switch MemoryLayout<Value>.size {
      case 8:
        invalidating_value_store_8(
          raw.assumingMemoryBound(to: UInt64.self), unsafeBitCast(value, to: UInt64.self))
      case 4:
        invalidating_value_store_4(
          raw.assumingMemoryBound(to: UInt32.self), unsafeBitCast(value, to: UInt32.self))
      case 2:
        invalidating_value_store_2(
          raw.assumingMemoryBound(to: UInt16.self), unsafeBitCast(value, to: UInt16.self))
      default:
        invalidating_value_store_1(
          raw.assumingMemoryBound(to: UInt8.self), unsafeBitCast(value, to: UInt8.self))
      }
    #endif
  }

  /// Stores `value` in `latest` and hands back the value it replaces in `value`, to be released
  /// after the lock (see `ValueNode`). Lock. With `readsLatestWithoutLock`, the store is an
  /// atomic store of the word, for the reads made without the lock, and `value` is left as it
  /// is: plain data has nothing to release.
  @inlinable @inline(__always)
  final func replaceLatest(_ value: inout Value) {
    #if canImport(InvalidatingPrimitives)
      if Self.readsLatestWithoutLock {
        Self.storeWord(value, at: &latest)
        return
      }
    #endif
    swap(&latest, &value)
  }
}
