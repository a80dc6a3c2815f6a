import Invalidating

// What tracing costs while a tracer records: the same operations as the `set`, `diamond` and
// `view` scenarios, traced, against themselves untraced. (Untraced, they pay one test of the
// tracing flag: those scenarios measure it.)

/// A tracer that records everything, started: what the traced scenarios run under.
@MainActor
func startedTracer() -> Tracer {
  let tracer = Tracer()
  tracer.start()
  return tracer
}

/// The traced rows: each operation with a tracer recording, against the same untraced.
@MainActor
func tracingScenarios(_ configuration: Configuration) -> [Row] {
  let untraced = measure(
    [setAndNotify(subscribers: 1).ours, diamond().ours, setOfOneProperty().ours], configuration)
  let tracer = startedTracer()
  let traced = measure(
    [setAndNotify(subscribers: 1).ours, diamond().ours, setOfOneProperty().ours], configuration)
  tracer.stop()
  let records = tracer.takeRecords().count
  let note = "ratio: traced / untraced"
  return [
    Row(
      name: "set + notify, 1 subscriber, traced", ours: traced[0], baseline: untraced[0],
      target: "-", pass: nil, note: note,
      instructions: InstructionProfiles("set-traced", baseline: "set")),
    Row(
      name: "diamond, per write, traced", ours: traced[1], baseline: untraced[1], target: "-",
      pass: nil, note: note,
      instructions: InstructionProfiles("diamond-traced", baseline: "diamond")),
    Row(
      name: "@ViewInvalidating set, traced", ours: traced[2], baseline: untraced[2],
      target: "-", pass: nil, note: "\(note); \(records) records kept",
      instructions: InstructionProfiles("view-traced", baseline: "view")),
  ]
}
