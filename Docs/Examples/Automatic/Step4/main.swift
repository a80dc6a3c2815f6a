import Invalidating
import Observation

// On by default where SwiftUI exists; this program runs on Linux too.
ObservationVisibility.isEnabled = true

let model = MonitorModel()
let needsRedraw = BehaviorRelay(true)

/// What SwiftUI does with a view's `body` on iOS 17 and later: reads it under
/// Observation's tracking, and redraws once Observation reports a change of
/// what it read.
func redrawIfNeeded(_ label: String) {
  guard needsRedraw.value else {
    print("\(label): no redraw")
    return
  }
  needsRedraw.accept(false)
  let headline = withObservationTracking {
    model.headline.value
  } onChange: {
    needsRedraw.accept(true)
  }
  print("\(label): body shows \(headline)")
}

redrawIfNeeded("start")
model.apply(Reading(time: "12:00:01", cpu: 0.12, memory: 0.40))
redrawIfNeeded("12:00:01")
model.apply(Reading(time: "12:00:02", cpu: 0.121, memory: 0.55))
redrawIfNeeded("12:00:02")
model.focus(on: .memory)
redrawIfNeeded("focus on memory")
model.apply(Reading(time: "12:00:03", cpu: 0.97, memory: 0.551))
redrawIfNeeded("12:00:03")

// Observations (Swift 6.2): the current headline, then one value per change.
var shown = 0
for await headline in Observations({ model.headline.value }) {
  print("Observations: \(headline)")
  shown += 1
  if shown == 2 { break }
  model.focus(on: .cpu)
}
