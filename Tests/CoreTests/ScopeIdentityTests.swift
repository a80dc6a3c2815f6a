import Dispatch
import Testing

@testable import InvalidatingCore

/// The identity of a batch or delivery, which lets a property request its invalidations once
/// per scope: a repeated identity would make a property skip an invalidation nobody requested.
@Suite("Scope identities")
struct ScopeIdentityTests {
  @Test("every outermost scope on every thread has its own identity, never 0")
  func uniqueAcrossScopesAndThreads() {
    // More scopes per thread than one block of identities holds, so every thread refills.
    let perThread = Int(ThreadContext.scopeIdentityBlock) + 5_000
    let threads = 4
    let lock = Lock()
    nonisolated(unsafe) var seen: [UInt64] = []
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      var mine: [UInt64] = []
      mine.reserveCapacity(perThread)
      for _ in 0..<perThread {
        batch { mine.append(ThreadContext.current.currentScopeIdentity()) }
      }
      lock.lock()
      seen.append(contentsOf: mine)
      lock.unlock()
    }
    #expect(seen.count == threads * perThread)
    #expect(Set(seen).count == seen.count)
    #expect(!seen.contains(0))
  }

  @Test("nested scopes share the outermost scope's identity; outside a scope it is 0")
  func nestedScopesShareOne() {
    var outer: UInt64 = 0
    var inner: UInt64 = 0
    var later: UInt64 = 0
    batch {
      outer = ThreadContext.current.openScopeIdentity()
      batch { inner = ThreadContext.current.openScopeIdentity() }
      later = ThreadContext.current.openScopeIdentity()
    }
    #expect(outer != 0)
    #expect(inner == outer)
    #expect(later == outer)
    #expect(ThreadContext.current.openScopeIdentity() == 0)
  }
}
