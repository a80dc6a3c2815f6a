import Invalidating
import InvalidatingTesting

let clock = TestClock()
let service = Service(clock: clock)
let model = SignUpViewModel(service: service, clock: clock)
let enabled = Recorder(model.signUp.isEnabled, clock: clock)
let working = Recorder(model.isWorking, clock: clock)
let welcome = Recorder(model.signUp.values, clock: clock)

model.username.accept("mona")
model.password.accept("correct horse")
// The name is debounced at 300 ms and checked by 500 ms; the second tap is refused.
await clock.advance(by: .milliseconds(500))
model.signUpTapped()
model.signUpTapped()
await clock.advance(by: .milliseconds(500))

print("requests: \(service.requests)")
print(
  "sign-up enabled: \(enabled.records.map { "\($0.time): \($0.value)" })"
)
print("working: \(working.records.map { "\($0.time): \($0.value)" })")
print("welcome: \(welcome.records.map { "\($0.time): \($0.value)" })")
