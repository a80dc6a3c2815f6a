import Invalidating

// `--profile=NAME --iterations=N`: one scenario's own operation, N times, with no baseline, no
// calibration and no report, for a profiler. Under callgrind the instructions of one operation
// are the difference between two runs' totals divided by the difference in N, which cancels the
// setup:
//
//     valgrind --tool=callgrind invalidating-benchmarks --profile=diamond --iterations=100000
//     valgrind --tool=callgrind invalidating-benchmarks --profile=diamond --iterations=200000

/// The scenarios that can be profiled, by name, each running its operation `iterations` times.
@MainActor
let profiles: [String: (_ iterations: Int) -> Void] = [
  "set": { iterations in
    let relay = BehaviorRelay(0)
    let token = relay.subscribe(sink)
    for i in 0..<iterations { relay.accept(i) }
    blackHole(token)
  },
  "subscribe": { iterations in
    let relay = BehaviorRelay(0)
    for _ in 0..<iterations { relay.subscribe(sink).cancel() }
  },
  "chain": { iterations in
    let relay = BehaviorRelay(0)
    var property = relay.asProperty()
    for _ in 0..<10 { property = property.map { $0 &+ 1 } }
    let token = property.subscribe(sink)
    for i in 0..<iterations { relay.accept(i) }
    blackHole(token)
  },
  "diamond": { iterations in
    let relay = BehaviorRelay(0)
    let a = relay.asProperty()
    let pair = Property.combineLatest(a.map { $0 &+ 1 }, a.map { $0 &* 2 })
    let token = pair.subscribe { b, c in consumed &+= b &+ c }
    for i in 0..<iterations { relay.accept(i) }
    blackHole(token)
  },
  "combineLatest": { iterations in
    let relays = (0..<6).map { BehaviorRelay($0) }
    let p = relays.map { $0.asProperty() }
    let combined = Property.combineLatest(p[0], p[1], p[2], p[3], p[4], p[5])
    let token = combined.subscribe { a, b, c, d, e, f in consumed &+= a &+ b &+ c &+ d &+ e &+ f }
    for i in 0..<iterations { relays[i % 6].accept(i) }
    blackHole(token)
  },
  "view": { iterations in
    let view = WrappedView()
    for i in 0..<iterations { view.radius = Double(i) }
  },
  "batch": { iterations in
    // One operation is one set inside a batch; the batches hold 10,000 sets each.
    let view = WrappedView()
    let loop = RenderLoop()
    loop.addRootView(view)
    var done = 0
    while done < iterations {
      let sets = min(setsPerBatch, iterations - done)
      batch { for k in 0..<sets { view.width = Double(done + k) } }
      loop.tick()
      done += sets
    }
  },
]
