// expect: type 'Draft' does not conform to the 'Sendable' protocol
import Invalidating

// `drive` hands values written on other threads to the main actor, so they must be `Sendable`.
final class Draft {
  var text = ""
}

@MainActor final class EditorController {
  var text = ""
  var token: SubscriptionToken?

  func connect(to draft: Property<Draft>) {
    token = draft.drive { [weak self] in self?.text = $0.text }
  }
}
