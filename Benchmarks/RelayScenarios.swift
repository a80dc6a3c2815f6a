import Invalidating

// Relays and operators against hand-written closure arrays. Every body runs its operation
// `iterations` times; sinks add what they receive to `consumed`.

/// A sink that consumes its value.
let sink: @Sendable (Int) -> Void = { consumed &+= $0 }

/// Set + notify with `count` subscribers (0: set with none).
func setAndNotify(subscribers count: Int, _ configuration: Configuration) -> Row {
  let baseline = ClosureRelay(0)
  let bare = BareRelay(0)
  for _ in 0..<count {
    _ = baseline.subscribe(sink)
    bare.sinks.append(sink)
  }
  let times = measure(
    [
      writes(toRelayWithSubscribers: count),
      { iterations in for i in 0..<iterations { baseline.accept(i) } },
      { iterations in for i in 0..<iterations { bare.accept(i) } },
    ], configuration)
  let limit: Double? = count == 1 ? 2.5 : count == 100 ? 1.5 : nil
  return Row(
    name: count == 0
      ? "set, no subscriber" : "set + notify, \(count) subscriber\(count == 1 ? "" : "s")",
    ours: times[0], baseline: times[1], target: limit.map { "<= \(format($0))x" } ?? "-",
    pass: limit.map { times[0] / times[1] <= $0 }, note: "unlocked array \(format(times[2]))")
}

/// Subscribe + cancel, alone (`others == 0`) or among other subscriptions; `alone` is the
/// figure without others, for the "no slower" target.
func subscribeAndCancel(others: Int, alone: Double?, _ configuration: Configuration) -> Row {
  let baseline = ClosureRelay(0)
  for _ in 0..<others { _ = baseline.subscribe(sink) }
  let times = measure(
    [
      subscribeAndCancel(amongOthers: others),
      { iterations in
        for _ in 0..<iterations { baseline.cancel(baseline.subscribe(sink)) }
      },
    ], configuration)
  var pass = times[0] / times[1] <= 4
  var target = "<= 4.00x"
  var note = ""
  if let alone {
    // "No slower": within 25% of the figure alone, which absorbs run-to-run noise.
    pass = pass && times[0] <= alone * 1.25
    target += ", <= 1.25x alone"
    note = "alone \(format(alone))"
  }
  return Row(
    name: others == 0 ? "subscribe + cancel" : "subscribe + cancel, \(others) others",
    ours: times[0], baseline: times[1], target: target, pass: pass, note: note)
}

/// Reading the current value.
func read(_ configuration: Configuration) -> Row {
  let relay = BehaviorRelay(42)
  let property = relay.asProperty()
  let baseline = ClosureRelay(42)
  let bare = BareRelay(42)
  let times = measure(
    [
      { iterations in for _ in 0..<iterations { consumed &+= relay.value } },
      { iterations in for _ in 0..<iterations { consumed &+= baseline.read() } },
      { iterations in for _ in 0..<iterations { consumed &+= bare.read() } },
      { iterations in for _ in 0..<iterations { consumed &+= property.value } },
    ], configuration)
  return Row(
    name: "read the value", ours: times[0], baseline: times[1], target: "<= 10 ns",
    pass: times[0] <= 10,
    note: "Property \(format(times[3])); unlocked \(format(times[2]))")
}

/// A chain of 10 `map`s with a sink at the end, per write to the source.
func mapChain(_ configuration: Configuration) -> Row {
  let baseline = ClosureRelay(0)
  let transforms: [(Int) -> Int] = (0..<10).map { _ in { $0 &+ 1 } }
  _ = baseline.subscribe { value in
    var result = value
    for transform in transforms { result = transform(result) }
    sink(result)
  }
  let times = measure(
    [writesThroughMapChain(), { iterations in for i in 0..<iterations { baseline.accept(i) } }],
    configuration)
  return Row(
    name: "chain of 10 maps, set + sink", ours: times[0], baseline: times[1],
    target: "<= 5.00x", pass: times[0] / times[1] <= 5)
}

/// Counts calls to the diamond's sink. Safe: touched only by the benchmark's single thread.
nonisolated(unsafe) var diamondCalls = 0

/// The diamond a -> b, a -> c, combineLatest(b, c): time per write, and sink calls per write.
func diamond(_ configuration: Configuration) -> Row {
  let ours = writesThroughDiamond()
  let baseline = ClosureRelay(0)
  let left: (Int) -> Int = { $0 &+ 1 }
  let right: (Int) -> Int = { $0 &* 2 }
  let pairSink: ((Int, Int)) -> Void = { consumed &+= $0.0 &+ $0.1 }
  _ = baseline.subscribe { value in pairSink((left(value), right(value))) }
  // Sink calls per write, checked outside the timing.
  diamondCalls = 0
  let writes = 1_000
  ours(writes)
  let callsPerWrite = Double(diamondCalls) / Double(writes)
  let times = measure(
    [ours, { iterations in for i in 0..<iterations { baseline.accept(i) } }], configuration)
  return Row(
    name: "diamond, per write", ours: times[0], baseline: times[1],
    target: "<= 4.00x, 1 sink call/write", pass: times[0] / times[1] <= 4 && callsPerWrite == 1,
    note: "sink calls/write \(format(callsPerWrite, 3))")
}

/// `combineLatest` of 6 relays with a sink; each write goes to one relay, in turn.
func combineLatestOfSix(_ configuration: Configuration) -> Row {
  // Hand-written: each relay's sink stores its slot and calls the combined sink.
  let baselines = (0..<6).map { ClosureRelay($0) }
  final class Latest { var values = [0, 1, 2, 3, 4, 5] }
  let latest = Latest()
  let combinedSink: ((Int, Int, Int, Int, Int, Int)) -> Void = {
    consumed &+= $0.0 &+ $0.1 &+ $0.2 &+ $0.3 &+ $0.4 &+ $0.5
  }
  for (slot, relay) in baselines.enumerated() {
    _ = relay.subscribe { value in
      latest.values[slot] = value
      let v = latest.values
      combinedSink((v[0], v[1], v[2], v[3], v[4], v[5]))
    }
  }
  let times = measure(
    [
      writesThroughCombineLatestOfSix(),
      { iterations in for i in 0..<iterations { baselines[i % 6].accept(i) } },
    ], configuration)
  return Row(
    name: "combineLatest of 6, per write", ours: times[0], baseline: times[1], target: "-",
    pass: nil)
}

// Our side of each scenario, shared with `--profile` (Profiles.swift): each builds its graph and
// returns the body that runs the operation; the body keeps the graph's tokens alive.

/// Writes to a relay with `count` subscribers.
func writes(toRelayWithSubscribers count: Int) -> Body {
  let relay = BehaviorRelay(0)
  let tokens = (0..<count).map { _ in relay.subscribe(sink) }
  return { iterations in
    for i in 0..<iterations { relay.accept(i) }
    blackHole(tokens)
  }
}

/// Subscribes to a relay that has `others` subscribers, and cancels.
func subscribeAndCancel(amongOthers others: Int) -> Body {
  let relay = BehaviorRelay(0)
  let tokens = (0..<others).map { _ in relay.subscribe(sink) }
  return { iterations in
    for _ in 0..<iterations { relay.subscribe(sink).cancel() }
    blackHole(tokens)
  }
}

/// Writes through a chain of 10 `map`s to a sink.
func writesThroughMapChain() -> Body {
  let relay = BehaviorRelay(0)
  var property = relay.asProperty()
  for _ in 0..<10 { property = property.map { $0 &+ 1 } }
  let token = property.subscribe(sink)
  return { iterations in
    for i in 0..<iterations { relay.accept(i) }
    blackHole(token)
  }
}

/// Writes through the diamond a -> b, a -> c, combineLatest(b, c) to a sink that counts its
/// calls in `diamondCalls`.
func writesThroughDiamond() -> Body {
  let relay = BehaviorRelay(0)
  let a = relay.asProperty()
  let pair = Property.combineLatest(a.map { $0 &+ 1 }, a.map { $0 &* 2 })
  let token = pair.subscribe { b, c in
    diamondCalls += 1
    consumed &+= b &+ c
  }
  return { iterations in
    for i in 0..<iterations { relay.accept(i) }
    blackHole(token)
  }
}

/// The diamond written with computed properties: `Property { }` closures that read `value`.
func writesThroughComputedDiamond() -> Body {
  let relay = BehaviorRelay(0)
  let b = Property { relay.value &+ 1 }
  let c = Property { relay.value &* 2 }
  let d = Property { b.value &+ c.value }
  let token = d.subscribe { value in
    diamondCalls += 1
    consumed &+= value
  }
  return { iterations in
    for i in 0..<iterations { relay.accept(i) }
    blackHole(token)
  }
}

/// Writes to six relays in turn, combined by one `combineLatest` with a sink.
func writesThroughCombineLatestOfSix() -> Body {
  let relays = (0..<6).map { BehaviorRelay($0) }
  let p = relays.map { $0.asProperty() }
  let combined = Property.combineLatest(p[0], p[1], p[2], p[3], p[4], p[5])
  let token = combined.subscribe { a, b, c, d, e, f in consumed &+= a &+ b &+ c &+ d &+ e &+ f }
  return { iterations in
    for i in 0..<iterations { relays[i % 6].accept(i) }
    blackHole(token)
  }
}
