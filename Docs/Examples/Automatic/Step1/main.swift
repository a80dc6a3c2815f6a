import Invalidating

let model = MonitorModel { print("  computes \($0)") }
let token = model.headline.subscribe { print("headline: \($0)") }

print("-- cpu 12%, memory 40%")
model.apply(Reading(cpu: 0.12, memory: 0.40))

print("-- cpu 12.4%, memory 45%")
model.apply(Reading(cpu: 0.124, memory: 0.45))

print("-- focus on memory")
model.focus(on: .memory)

print("-- cpu 58%, memory 45%")
model.apply(Reading(cpu: 0.58, memory: 0.45))
