import Dispatch
import Invalidating

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Latest-wins async work (issue 27): an event through `flatMapLatest` with async work (the
// task started, the previous one cancelled, the result delivered) against what a view model
// writes by hand without it: a subscriber of the same relay that starts a `Task` per event,
// cancels the previous one and checks a generation number before delivering. Both sides get
// their events from a `PublishRelay`; the work itself is trivial, so the row measures the
// machinery.
//
// An operation is two events in a row, the second superseding the first, and the wait for the
// second's result. The tasks run on the pool's threads, so the row measures the CPU time of
// the whole process (the harness's per-thread CPU time would miss the tasks' work; wall-clock
// time, in the note, mostly measures how soon a loaded machine schedules the threads); samples
// of ours and of the baseline alternate, so the machine's load hits them alike.

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
  let floorQueries = PublishRelay<Int>()
  let floorToken = floorQueries.subscribe { handWritten.send($0) }
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
        floorQueries.accept(2 &* i)
        floorQueries.accept(2 &* i &+ 1)
        floor.semaphore.wait()
      }
      blackHole(floorToken)
    })
}

/// The row of `latestWinsAsync()`, in wall-clock time.
func latestWinsAsync(_ configuration: Configuration) -> Row {
  let sides = latestWinsAsync()
  let iterations = max(50, Int(configuration.sampleNanoseconds / 20_000))
  sides.ours(iterations)
  sides.floor(iterations)
  var ours: [(cpu: Double, wall: Double)] = []
  var floor: [(cpu: Double, wall: Double)] = []
  for _ in 0..<configuration.samples {
    ours.append(times(sides.ours, iterations))
    floor.append(times(sides.floor, iterations))
  }
  let (mine, theirs) = (median(ours.map(\.cpu)), median(floor.map(\.cpu)))
  let wall = median(ours.map(\.wall)) / median(floor.map(\.wall))
  return Row(
    name: "latest-wins async work, 2 events + delivery", ours: mine, baseline: theirs,
    target: "<= 1.5x", pass: mine / theirs <= 1.5,
    note: "process CPU time; baseline: a relay's subscriber with Task + cancel + generation "
      + "check; wall clock "
      + "\(format(wall, 2))x; \(iterations) per sample")
}

/// The process's CPU time and the wall-clock time per operation of one sample, in
/// nanoseconds.
private func times(_ body: Body, _ iterations: Int) -> (cpu: Double, wall: Double) {
  let start = (processCPUTime(), wallClock())
  body(iterations)
  let cpu = Double(processCPUTime() - start.0) / Double(iterations)
  return (cpu, Double(wallClock() - start.1) / Double(iterations))
}

/// The CPU time every thread of the process has used, in nanoseconds.
private func processCPUTime() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
