import Dispatch
import Invalidating

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Latest-wins async work (issue 27): an event through `flatMapLatest` with async work (the
// task started, the previous one cancelled, the result delivered) against the same written by
// hand: a `Task` per event, the previous one cancelled, a generation number checked before
// delivering. The work itself is trivial, so the row measures the machinery.
//
// An operation is two events in a row, the second superseding the first, and the wait for the
// second's result. The result is delivered on another thread, so the row measures wall-clock
// time (the harness's per-thread CPU time would miss the task's work); samples of ours and of
// the baseline alternate, so the machine's load hits them alike.

/// Wakes the benchmark's thread when the result it waits for arrives.
private final class Arrival: @unchecked Sendable {
  // Safe: `awaited` is written by the benchmark's thread before the event that delivers it is
  // sent, and read by the delivering thread after; the semaphore orders the two.
  let semaphore = DispatchSemaphore(value: 0)
  var awaited = -1
  var delivered = 0

  func deliver(_ value: Int) {
    delivered &+= 1
    if value == awaited { semaphore.signal() }
  }

  deinit { consumed &+= delivered }
}

/// The hand-written baseline: a task per event, the previous one cancelled, a generation
/// number checked under a lock before delivering.
private final class HandWrittenLatest: @unchecked Sendable {
  // Safe: `generation` and `task` are only touched while `lock` is held.
  private let lock = NSLockLike()
  private var generation = 0
  private var task: Task<Void, Never>?
  private let deliver: @Sendable (Int) -> Void

  init(_ deliver: @escaping @Sendable (Int) -> Void) { self.deliver = deliver }

  func send(_ value: Int) {
    lock.lock()
    generation += 1
    let current = generation
    task?.cancel()
    task = Task { [weak self] in
      let result = await work(value)
      guard !Task.isCancelled, let self else { return }
      self.lock.lock()
      let isLatest = current == self.generation
      self.lock.unlock()
      if isLatest { self.deliver(result) }
    }
    lock.unlock()
  }
}

/// The work: trivial, async.
@Sendable private func work(_ value: Int) async -> Int { value &+ 1 }

/// A lock for the baseline, as an app would write one.
private final class NSLockLike: @unchecked Sendable {
  // Safe: the mutex is only touched through lock and unlock.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  init() { pthread_mutex_init(mutex, nil) }
  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }
  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
}

/// Both sides of the row: each runs the operation `iterations` times.
func latestWinsAsync() -> Sides {
  let ours = Arrival()
  let queries = PublishRelay<Int>()
  let results = queries.flatMapLatest { await work($0) }
  let token = results.subscribe { ours.deliver($0) }
  let floor = Arrival()
  let handWritten = HandWrittenLatest { floor.deliver($0) }
  return Sides(
    ours: { iterations in
      for i in 0..<iterations {
        ours.awaited = 2 &* i &+ 2
        queries.accept(2 &* i)
        queries.accept(2 &* i &+ 1)
        ours.semaphore.wait()
      }
      blackHole(token)
    },
    floor: { iterations in
      for i in 0..<iterations {
        floor.awaited = 2 &* i &+ 2
        handWritten.send(2 &* i)
        handWritten.send(2 &* i &+ 1)
        floor.semaphore.wait()
      }
    })
}

/// The row of `latestWinsAsync()`, in wall-clock time.
func latestWinsAsync(_ configuration: Configuration) -> Row {
  let sides = latestWinsAsync()
  let iterations = max(50, Int(configuration.sampleNanoseconds / 20_000))
  sides.ours(iterations)
  sides.floor(iterations)
  var ours: [Double] = []
  var floor: [Double] = []
  for _ in 0..<configuration.samples {
    ours.append(wallTime(sides.ours, iterations))
    floor.append(wallTime(sides.floor, iterations))
  }
  let (mine, theirs) = (median(ours), median(floor))
  return Row(
    name: "latest-wins async work, 2 events + delivery", ours: mine, baseline: theirs,
    target: "<= 1.5x", pass: mine / theirs <= 1.5,
    note: "wall clock; baseline: Task + cancel + generation check; \(iterations) per sample")
}

/// Wall-clock nanoseconds per operation of one sample.
private func wallTime(_ body: Body, _ iterations: Int) -> Double {
  let start = wallClock()
  body(iterations)
  return Double(wallClock() - start) / Double(iterations)
}
