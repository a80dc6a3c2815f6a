import Invalidating

// Relays and operators against hand-written closure arrays (Baselines.swift).
//
// Each scenario is built by a function, as an app builds its view models: the relays, the
// graph and the subscriptions are locals of that function, and every sink is a closure literal
// that captures the object it updates (a `Tally`), so it carries a context as an app's
// closures do. The function returns both sides of the scenario (`Sides`), each a body that runs
// the operation `iterations` times on what it captured; the timed rows and `--profile`
// (Profiles.swift) run the very same bodies.

/// What a sink closure updates: an object it captures, as an app's closure captures the view
/// model or the label it writes to. Each scenario makes its own.
final class Tally: @unchecked Sendable {
  // Safe: a tally is only touched by the thread that builds and runs its scenario.

  /// The sum of the values received.
  var total = 0
  /// How many values were received.
  var calls = 0

  // What the sinks added joins the checksum, so the optimizer must keep their work.
  deinit { consumed &+= total &+ calls }
}

/// One scenario, built: our side and the hand-written floor of the same work, each a body that
/// runs the operation `iterations` times.
///
/// `--profile=NAME` runs `ours` and `--profile=NAME-floor` runs `floor` (Profiles.swift).
struct Sides {
  /// The scenario written with this package.
  var ours: Body
  /// The same work written by hand, with a lock: the baseline of the row's ratio.
  var floor: Body
  /// Other bodies the row reports in its note (the floor without its lock, another way in).
  var others: [Body] = []
}

extension Sides {
  /// The sides of a scenario whose operation writes the iteration's index: to `relay`, whose
  /// graph `token` observes (the body keeps it alive), and to `floor`.
  static func writes(
    to relay: BehaviorRelay<Int>, keeping token: SubscriptionToken, floor: ClosureRelay
  ) -> Sides {
    Sides(
      ours: { iterations in
        for i in 0..<iterations { relay.accept(i) }
        blackHole(token)
      },
      floor: { iterations in for i in 0..<iterations { floor.accept(i) } })
  }
}

extension Row {
  /// The row of `sides`, timed against its floor: the target is `limit` times the floor's
  /// time, and `instructionLimit` times its instructions (profile `profile`).
  static func timedAgainstFloor(
    _ name: String, _ sides: Sides, within limit: Double, profile: String,
    instructionsWithin instructionLimit: Double, _ configuration: Configuration
  ) -> Row {
    let times = measure([sides.ours, sides.floor], configuration)
    return Row(
      name: name, ours: times[0], baseline: times[1], target: "<= \(format(limit, 2))x",
      pass: times[0] / times[1] <= limit,
      instructions: InstructionProfiles(profile, target: .timesFloor(instructionLimit)))
  }
}

/// Set + notify with `count` subscribers (0: set with none).
func setAndNotify(subscribers count: Int) -> Sides {
  let tally = Tally()
  let relay = BehaviorRelay(0)
  let tokens = (0..<count).map { _ in relay.subscribe { tally.total &+= $0 } }
  let floor = ClosureRelay(0)
  let bare = BareRelay(0)
  for _ in 0..<count {
    _ = floor.subscribe { tally.total &+= $0 }
    bare.append { tally.total &+= $0 }
  }
  return Sides(
    ours: { iterations in
      for i in 0..<iterations { relay.accept(i) }
      blackHole(tokens)
    },
    floor: { iterations in for i in 0..<iterations { floor.accept(i) } },
    others: [{ iterations in for i in 0..<iterations { bare.accept(i) } }])
}

/// The row of `setAndNotify(subscribers:)`.
func setAndNotify(subscribers count: Int, _ configuration: Configuration) -> Row {
  let sides = setAndNotify(subscribers: count)
  let times = measure([sides.ours, sides.floor] + sides.others, configuration)
  let limit: Double? = count == 1 ? 2.5 : count == 100 ? 1.5 : nil
  return Row(
    name: count == 0
      ? "set, no subscriber" : "set + notify, \(count) subscriber\(count == 1 ? "" : "s")",
    ours: times[0], baseline: times[1], target: limit.map { "<= \(format($0))x" } ?? "-",
    pass: limit.map { times[0] / times[1] <= $0 }, note: "unlocked array \(format(times[2]))",
    instructions: count == 1 ? InstructionProfiles("set", target: .timesFloor(1.8)) : nil)
}

/// Subscribes a closure to a relay that has `others` subscribers, and cancels.
func subscribeAndCancel(amongOthers others: Int) -> Sides {
  let tally = Tally()
  let relay = BehaviorRelay(0)
  let tokens = (0..<others).map { _ in relay.subscribe { tally.total &+= $0 } }
  let floor = ClosureRelay(0)
  for _ in 0..<others { _ = floor.subscribe { tally.total &+= $0 } }
  return Sides(
    ours: { iterations in
      for _ in 0..<iterations { relay.subscribe { tally.total &+= $0 }.cancel() }
      blackHole(tokens)
    },
    floor: { iterations in
      for _ in 0..<iterations { floor.cancel(floor.subscribe { tally.total &+= $0 }) }
    })
}

/// Subscribe + cancel, alone (`others == 0`) or among other subscriptions; `alone` is the
/// figure without others, for the "no slower" target.
func subscribeAndCancel(others: Int, alone: Double?, _ configuration: Configuration) -> Row {
  let sides = subscribeAndCancel(amongOthers: others)
  let times = measure([sides.ours, sides.floor], configuration)
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
    ours: times[0], baseline: times[1], target: target, pass: pass, note: note,
    instructions: others == 0 ? InstructionProfiles("subscribe", target: .timesFloor(2)) : nil)
}

/// Reading a relay's current value; `others` are the unlocked read and the read through
/// `Property`.
func read() -> Sides {
  let relay = BehaviorRelay(42)
  let property = relay.asProperty()
  let floor = ClosureRelay(42)
  let bare = BareRelay(42)
  let tally = Tally()
  return Sides(
    ours: { iterations in for _ in 0..<iterations { tally.total &+= relay.value } },
    floor: { iterations in for _ in 0..<iterations { tally.total &+= floor.read() } },
    others: [
      { iterations in for _ in 0..<iterations { tally.total &+= bare.read() } },
      { iterations in for _ in 0..<iterations { tally.total &+= property.value } },
    ])
}

/// The row of `read()`, in the process as the benchmark starts it: with one thread, where
/// the engine's lock (like glibc's mutex, the floor's) takes no atomic instruction.
func read(_ configuration: Configuration) -> Row {
  let sides = read()
  let times = measure([sides.ours, sides.floor] + sides.others, configuration)
  return Row(
    name: "read the value", ours: times[0], baseline: times[1], target: "<= 8 ns",
    pass: times[0] <= 8,
    note: "Property \(format(times[3])); unlocked \(format(times[2])); one thread",
    instructions: InstructionProfiles("read"))
}

/// A chain of 10 `map`s with a sink at the end, per write to the source; by hand, one closure
/// that applies the ten transforms and calls the sink's code.
func mapChain() -> Sides {
  let tally = Tally()
  let relay = BehaviorRelay(0)
  var property = relay.asProperty()
  for _ in 0..<10 { property = property.map { $0 &+ 1 } }
  let token = property.subscribe { tally.total &+= $0 }
  let floor = ClosureRelay(0)
  let transforms: [(Int) -> Int] = (0..<10).map { _ in { $0 &+ 1 } }
  _ = floor.subscribe { value in
    var result = value
    for transform in transforms { result = transform(result) }
    tally.total &+= result
  }
  return .writes(to: relay, keeping: token, floor: floor)
}

/// The row of `mapChain()`.
func mapChain(_ configuration: Configuration) -> Row {
  .timedAgainstFloor(
    "chain of 10 maps, set + sink", mapChain(), within: 5, profile: "chain",
    instructionsWithin: 3, configuration)
}

/// The diamond a -> b, a -> c, combineLatest(b, c) with a sink; by hand, one closure that
/// computes both sides and calls the sink's code with the pair. `tally.calls` counts our
/// sink's calls.
func diamond(_ tally: Tally = Tally()) -> Sides {
  let relay = BehaviorRelay(0)
  let a = relay.asProperty()
  let pair = Property.combineLatest(a.map { $0 &+ 1 }, a.map { $0 &* 2 })
  let token = pair.subscribe { b, c in
    tally.calls += 1
    tally.total &+= b &+ c
  }
  let floor = ClosureRelay(0)
  let left: (Int) -> Int = { $0 &+ 1 }
  let right: (Int) -> Int = { $0 &* 2 }
  let pairSink: ((Int, Int)) -> Void = { tally.total &+= $0.0 &+ $0.1 }
  _ = floor.subscribe { value in pairSink((left(value), right(value))) }
  return .writes(to: relay, keeping: token, floor: floor)
}

/// The row of `diamond(_:)`: time per write, and sink calls per write.
func diamond(_ configuration: Configuration) -> Row {
  let tally = Tally()
  let sides = diamond(tally)
  // Sink calls per write, checked outside the timing (subscribing called the sink once).
  let writes = 1_000
  let before = tally.calls
  sides.ours(writes)
  let callsPerWrite = Double(tally.calls - before) / Double(writes)
  let times = measure([sides.ours, sides.floor], configuration)
  return Row(
    name: "diamond, per write", ours: times[0], baseline: times[1],
    target: "<= 4.00x, 1 sink call/write", pass: times[0] / times[1] <= 4 && callsPerWrite == 1,
    note: "sink calls/write \(format(callsPerWrite, 3))",
    instructions: InstructionProfiles("diamond", target: .timesFloor(3)))
}

/// The js-reactivity-benchmark's `updateComputations1to1`: one relay, one computed property
/// that reads it, a sink on the computed property; each operation writes the relay. By hand, a
/// relay whose one closure computes the same and calls the sink's code.
func computedUpdate() -> Sides {
  let tally = Tally()
  let relay = BehaviorRelay(0)
  let computed = Property { relay.value &+ 1 }
  let token = computed.subscribe { value in
    tally.calls += 1
    tally.total &+= value
  }
  let floor = ClosureRelay(0)
  let compute: (Int) -> Int = { $0 &+ 1 }
  _ = floor.subscribe { value in
    tally.calls += 1
    tally.total &+= compute(value)
  }
  return .writes(to: relay, keeping: token, floor: floor)
}

/// The row of `computedUpdate()` (issue 30's target: 2x the floor).
func computedUpdate(_ configuration: Configuration) -> Row {
  .timedAgainstFloor(
    "computed property, set + sink (update1to1)", computedUpdate(), within: 2,
    profile: "update1to1", instructionsWithin: 2, configuration)
}

/// The diamond written with computed properties: `Property { }` closures that read `value`
/// (for `--profile=computed-diamond`).
func computedDiamond() -> Body {
  let tally = Tally()
  let relay = BehaviorRelay(0)
  let b = Property { relay.value &+ 1 }
  let c = Property { relay.value &* 2 }
  let d = Property { b.value &+ c.value }
  let token = d.subscribe { value in
    tally.calls += 1
    tally.total &+= value
  }
  return { iterations in
    for i in 0..<iterations { relay.accept(i) }
    blackHole(token)
  }
}

/// `combineLatest` of 6 relays with a sink; each write goes to one relay, in turn. By hand, each
/// relay's sink stores its slot and calls the combined sink's code.
func combineLatestOfSix() -> Sides {
  let tally = Tally()
  let relays = (0..<6).map { BehaviorRelay($0) }
  let p = relays.map { $0.asProperty() }
  let combined = Property.combineLatest(p[0], p[1], p[2], p[3], p[4], p[5])
  let token = combined.subscribe { a, b, c, d, e, f in tally.total &+= a &+ b &+ c &+ d &+ e &+ f }
  let floors = (0..<6).map { ClosureRelay($0) }
  final class Latest { var values = [0, 1, 2, 3, 4, 5] }
  let latest = Latest()
  let combinedSink: ((Int, Int, Int, Int, Int, Int)) -> Void = {
    tally.total &+= $0.0 &+ $0.1 &+ $0.2 &+ $0.3 &+ $0.4 &+ $0.5
  }
  for (slot, relay) in floors.enumerated() {
    _ = relay.subscribe { value in
      latest.values[slot] = value
      let v = latest.values
      combinedSink((v[0], v[1], v[2], v[3], v[4], v[5]))
    }
  }
  return Sides(
    ours: { iterations in
      for i in 0..<iterations { relays[i % 6].accept(i) }
      blackHole(token)
    },
    floor: { iterations in for i in 0..<iterations { floors[i % 6].accept(i) } })
}

/// The row of `combineLatestOfSix()`.
func combineLatestOfSix(_ configuration: Configuration) -> Row {
  let sides = combineLatestOfSix()
  let times = measure([sides.ours, sides.floor], configuration)
  return Row(
    name: "combineLatest of 6, per write", ours: times[0], baseline: times[1], target: "-",
    pass: nil, instructions: InstructionProfiles("combineLatest"))
}

/// Writes to a relay with a subscriber inside one open batch, each write a new value; by hand,
/// the same stores into a relay behind a mutex that notifies no one (what a batch defers).
func writeInBatch() -> Sides {
  let tally = Tally()
  let relay = BehaviorRelay(0)
  let token = relay.subscribe { tally.total &+= $0 }
  let floor = ClosureRelay(0)
  return Sides(
    ours: { iterations in
      batch { for i in 0..<iterations { relay.accept(i) } }
      blackHole(token)
    },
    floor: { iterations in for i in 0..<iterations { floor.accept(i) } })
}

/// The row of `writeInBatch()`.
func writeInBatch(_ configuration: Configuration) -> Row {
  let sides = writeInBatch()
  let times = measure([sides.ours, sides.floor], configuration)
  return Row(
    name: "write inside a batch", ours: times[0], baseline: times[1], target: "-", pass: nil,
    note: "baseline: a locked store, no sink",
    instructions: InstructionProfiles("write-in-batch", target: .atMost(120)))
}
