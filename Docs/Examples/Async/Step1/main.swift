import Invalidating
import InvalidatingTesting

// The app passes `ContinuousClock()`; here a test clock moves time by hand, so that the
// run shows what happens at each moment, the same every time.
let clock = TestClock()
let model = SignUpViewModel(
  service: Service(clock: clock), clock: clock)
await clock.settle()  // the empty name's status: it needs no request
let timeline = Recorder(model.usernameStatus, clock: clock)

for name in ["a", "ad", "ada"] {  // typed 100 ms apart
  model.username.accept(name)
  await clock.advance(by: .milliseconds(100))
}
await clock.advance(by: .seconds(1))

for record in timeline.records {
  print("\(record.time): \"\(record.value)\"")
}
