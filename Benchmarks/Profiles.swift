import Invalidating

// `--profile=NAME --iterations=N`: one scenario's own operation, N times, with no baseline, no
// calibration and no report, for a profiler. Under callgrind the instructions of one operation
// are the difference between two runs' totals divided by the difference in N, which cancels the
// setup:
//
//     valgrind --tool=callgrind invalidating-benchmarks --profile=diamond --iterations=100000
//     valgrind --tool=callgrind invalidating-benchmarks --profile=diamond --iterations=200000

/// The scenarios that can be profiled, by name: our side of each, as the benchmark measures it.
/// One operation is one write, one subscribe + cancel, one set, or (`batch`) one batch of
/// 10,000 sets and a tick. The workloads add theirs (`workloadProfiles`): `workload-<case>` is
/// ours and `workload-<case>-<slug>` another implementation's (`-observation`,
/// `-observation-cached`); one operation is one iteration of the case, assertions included. A
/// `-traced` profile runs its operation while a tracer records.
@MainActor
let profiles: [String: () -> Body] = [
  "set": { writes(toRelayWithSubscribers: 1) },
  "subscribe": { subscribeAndCancel(amongOthers: 0) },
  "read": {
    let property = BehaviorRelay(42).asProperty()
    return { iterations in for _ in 0..<iterations { consumed &+= property.value } }
  },
  "chain": { writesThroughMapChain() },
  "diamond": { writesThroughDiamond() },
  "computed-diamond": { writesThroughComputedDiamond() },
  "one-write-batch": {
    let relay = BehaviorRelay(0)
    let token = relay.subscribe { consumed &+= $0 }
    return { iterations in
      for i in 0..<iterations { batch { relay.accept(i) } }
      blackHole(token)
    }
  },
  "read-in-batch": {
    let relay = BehaviorRelay(0)
    var end = relay.asProperty()
    for _ in 0..<10 { end = end.map { $0 &+ 1 } }
    let chain = end
    let token = chain.subscribe { consumed &+= $0 }
    return { iterations in
      for i in 0..<iterations {
        batch {
          relay.accept(i)
          consumed &+= chain.value
        }
      }
      blackHole(token)
    }
  },
  "write-in-batch": {
    let relay = BehaviorRelay(0)
    let token = relay.subscribe { consumed &+= $0 }
    return { iterations in
      batch { for i in 0..<iterations { relay.accept(i) } }
      blackHole(token)
    }
  },
  "combineLatest": { writesThroughCombineLatestOfSix() },
  "view": { setsOfOneProperty(of: WrappedView()) },
  "batch": {
    let view = WrappedView()
    let loop = RenderLoop()
    loop.addRootView(view)
    return batchesOfSets(of: view, ticking: loop)
  },
  // The same operations while a tracer records everything (TracingScenarios.swift).
  "set-traced": {
    _ = startedTracer()
    return writes(toRelayWithSubscribers: 1)
  },
  "diamond-traced": {
    _ = startedTracer()
    return writesThroughDiamond()
  },
  "view-traced": {
    _ = startedTracer()
    return setsOfOneProperty(of: WrappedView())
  },
]
