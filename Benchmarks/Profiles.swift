import Invalidating

// `--profile=NAME --iterations=N`: one scenario's own operation, N times, with no baseline, no
// calibration and no report, for a profiler. Under callgrind the instructions of one operation
// are the difference between two runs' totals divided by the difference in N, which cancels the
// setup:
//
//     valgrind --tool=callgrind invalidating-benchmarks --profile=diamond --iterations=100000
//     valgrind --tool=callgrind invalidating-benchmarks --profile=diamond --iterations=200000

/// The scenarios that can be profiled, by name: our side of each, as the benchmark measures it,
/// and as `NAME-floor` the hand-written floor of the same scenario (Baselines.swift), for the
/// rows `--instructions` compares. One operation is one write, one subscribe + cancel, one
/// set, or (`batch`) one batch of 10,000 sets and a tick. The workloads add theirs
/// (`workloadProfiles`): `workload-<case>` is ours and `workload-<case>-<slug>` another
/// implementation's (`-observation`, `-observation-cached`); one operation is one iteration of
/// the case, assertions included. A `-traced` profile runs its operation while a tracer
/// records.
@MainActor
let profiles: [String: () -> Body] = {
  let scenarios: [String: () -> Sides] = [
    "set": { setAndNotify(subscribers: 1) },
    "subscribe": { subscribeAndCancel(amongOthers: 0) },
    "read": { read() },
    "chain": { mapChain() },
    "diamond": { diamond() },
    "update1to1": { computedUpdate() },
    "combineLatest": { combineLatestOfSix() },
    "write-in-batch": { writeInBatch() },
    "view": { setOfOneProperty() },
    "batch": { batchOfSetsAndTick() },
    "async": { latestWinsAsync() },
  ]
  var profiles: [String: () -> Body] = [
    "computed-diamond": { computedDiamond() },
    "one-write-batch": {
      let tally = Tally()
      let relay = BehaviorRelay(0)
      let token = relay.subscribe { tally.total &+= $0 }
      return { iterations in
        for i in 0..<iterations { batch { relay.accept(i) } }
        blackHole(token)
      }
    },
    "read-in-batch": {
      let tally = Tally()
      let relay = BehaviorRelay(0)
      var end = relay.asProperty()
      for _ in 0..<10 { end = end.map { $0 &+ 1 } }
      let chain = end
      let token = chain.subscribe { tally.total &+= $0 }
      return { iterations in
        for i in 0..<iterations {
          batch {
            relay.accept(i)
            tally.total &+= chain.value
          }
        }
        blackHole(token)
      }
    },
    // A sink that writes another relay (a binding between two view models): delivered at
    // once, inside the sink, since nothing waits before it.
    "relay-to-relay": {
      let tally = Tally()
      let (from, to) = (BehaviorRelay(0), BehaviorRelay(0))
      let tokens = [to.subscribe { tally.total &+= $0 }, from.subscribe { to.accept($0) }]
      return { iterations in
        for i in 0..<iterations { from.accept(i) }
        blackHole(tokens)
      }
    },
    // A sink that writes back the relay it observes (a clamp): queued, delivered after.
    // One operation is the outside write and the one the sink makes.
    "sink-writes-back": {
      let tally = Tally()
      let relay = BehaviorRelay(0)
      let tokens = [
        relay.subscribe { value in
          tally.total &+= value
          if value & 1 == 1 { relay.accept(value &+ 1) }
        }
      ]
      return { iterations in
        for i in 0..<iterations { relay.accept(2 &* i &+ 1) }
        blackHole(tokens)
      }
    },
    // A sink that writes its own relay and then another: the second write waits behind the
    // first (CascadeOrder.swift), its domain joined to the first's until it is delivered.
    // One operation is the outside write and the two the sink makes.
    "sink-writes-in-order": {
      let tally = Tally()
      let (own, other) = (BehaviorRelay(0), BehaviorRelay(0))
      let tokens = [
        other.subscribe { tally.total &+= $0 },
        own.subscribe { value in
          guard value & 1 == 1 else { return }
          own.accept(value &+ 1)
          other.accept(value)
        },
      ]
      return { iterations in
        for i in 0..<iterations { own.accept(2 &* i &+ 1) }
        blackHole(tokens)
      }
    },
    // Creation and release (issue 30): one operation makes and lets go of the thing named.
    "create-relay": {
      { iterations in
        for i in 0..<iterations { blackHole(BehaviorRelay(i)) }
      }
    },
    "create-map": {
      let relay = BehaviorRelay(0)
      return { iterations in
        for _ in 0..<iterations { blackHole(relay.asProperty().map { $0 &+ 1 }) }
      }
    },
    "create-computed-subscribed": {
      let tally = Tally()
      let relay = BehaviorRelay(0)
      return { iterations in
        for _ in 0..<iterations {
          let computed = Property { relay.value &+ 1 }
          let token = computed.subscribe { tally.total &+= $0 }
          blackHole(token)
        }
      }
    },
    "create-subscription": {
      let tally = Tally()
      let relay = BehaviorRelay(0)
      return { iterations in
        for _ in 0..<iterations {
          let bag = SubscriptionBag()
          relay.subscribe(in: bag) { tally.total &+= $0 }
          blackHole(bag)
        }
      }
    },
    // The same operations while a tracer records everything (TracingScenarios.swift).
    "set-traced": {
      _ = startedTracer()
      return setAndNotify(subscribers: 1).ours
    },
    "diamond-traced": {
      _ = startedTracer()
      return diamond().ours
    },
    "view-traced": {
      _ = startedTracer()
      return setOfOneProperty().ours
    },
  ]
  profiles.merge(observationProfiles) { ours, _ in ours }
  for (name, build) in scenarios {
    profiles[name] = { build().ours }
    profiles["\(name)-floor"] = { build().floor }
  }
  return profiles
}()
