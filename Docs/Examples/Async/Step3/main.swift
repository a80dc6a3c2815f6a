import Invalidating
import InvalidatingTesting

let clock = TestClock()
let service = Service(clock: clock, latency: .milliseconds(500))
service.failNext("check mona")
let model = SignUpViewModel(service: service, clock: clock)
await clock.settle()  // the empty name's status: it needs no request
let status = Recorder(model.usernameStatus, clock: clock)

// "mon" is checked from 300 ms; "mona", checked from 700 ms, supersedes it and is tried
// twice: the first try fails.
model.username.accept("mon")
await clock.advance(by: .milliseconds(400))
model.username.accept("mona")
await clock.advance(by: .seconds(2))

for record in status.records {
  print("\(record.time): \"\(record.value)\"")
}
print("checked: \(service.requests.filter { $0.hasPrefix("check") })")
print(
  "cancelled: \(service.requests.filter { $0.hasPrefix("cancelled") })")
print("failed: \(service.requests.filter { $0.hasPrefix("failed") })")
