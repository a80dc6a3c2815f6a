import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Helpers of the sustained-load tests (issue 13): figures they measure and print, and the
/// scale of their thresholds.
enum Sustained {
  /// Whether the tests run under ThreadSanitizer, which slows them about ten times: time-based
  /// thresholds are multiplied by ``slowdown``. Count-based ones need no scaling.
  static let isUnderThreadSanitizer: Bool = {
    // The sanitizer's runtime is linked into the test binary and exports its entry points.
    #if canImport(Darwin)
      let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(everywhere, "__tsan_init") != nil
  }()

  /// How many times slower than a plain debug build the tests run.
  static var slowdown: Double { isUnderThreadSanitizer ? 10 : 1 }

  /// The resident set size of this process, in bytes (0 where `/proc` is not available).
  static func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// The CPU time the calling thread has used, in seconds: what a ratio of two runs' costs
  /// compares, unlike wall time unaffected by other processes on a loaded machine.
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Seconds since an arbitrary start, for measuring one call.
  static func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
  }

  /// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it, at most
  /// `timeout` seconds (scaled by ``slowdown``).
  ///
  /// - Returns: Whether `body` finished in time; `false` means it hung or took far longer than
  ///   linear time, which the caller reports.
  @discardableResult
  static func onThread(
    stackSize: Int, timeout: Double = 60, _ body: @escaping @Sendable () -> Void
  ) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    return done.wait(timeout: .now() + timeout * slowdown) == .success
  }
}

/// The identity of one thread, comparable from any other: which thread ran a sink.
struct ThreadIdentity: Equatable, Sendable {
  let raw: UInt

  /// The calling thread.
  static var current: ThreadIdentity {
    #if canImport(Glibc)
      ThreadIdentity(raw: UInt(pthread_self()))
    #else
      ThreadIdentity(raw: UInt(bitPattern: pthread_self()))
    #endif
  }
}

/// The largest of the values recorded, from any thread.
final class Maximum: Sendable {
  private let storage = Atomic<Int>(0)

  var value: Int { storage.load(ordering: .acquiring) }

  func record(_ candidate: Int) {
    var current = storage.load(ordering: .relaxed)
    while candidate > current {
      let (exchanged, original) = storage.compareExchange(
        expected: current, desired: candidate, ordering: .acquiringAndReleasing)
      if exchanged { return }
      current = original
    }
  }
}
