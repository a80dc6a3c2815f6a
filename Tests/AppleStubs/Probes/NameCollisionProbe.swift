import Foundation
import Invalidating

// Compiled by scripts/check-apple-glue: once against this machine's own Foundation and
// Observation, then in every pass against the stand-ins of Foundation, Combine, SwiftUI and
// UIKit or AppKit (and the toolchain's Observation). Fails if one of the package's top-level public names is
// ambiguous beside theirs: every name is used unqualified, with all the frameworks imported,
// as a view model or view file does.
#if canImport(Combine)
  import Combine
#endif
#if canImport(Observation)
  import Observation
#endif
#if canImport(SwiftUI)
  import SwiftUI
#endif
#if canImport(UIKit)
  import UIKit
#endif
#if canImport(AppKit)
  import AppKit
#endif

@MainActor
func everyTopLevelNameUnqualified() {
  let relay: BehaviorRelay<Int> = BehaviorRelay(0)
  let events: PublishRelay<Int> = PublishRelay()
  let property: Property<Int> = relay.asProperty()
  let token: SubscriptionToken = property.drive { _ in }
  let changes: Signal<Int> = property.changes
  let values: PropertyValues<Int> = property.values
  let signalValues: SignalValues<Int> = events.values
  let answer: Int = batch { 42 }
  let types: [Any.Type] = [
    Engine.self, Invalidations.self, HeadlessView.self, PlatformView.self, RenderLoop.self,
    ViewPoint.self, ViewRect.self, ViewSize.self, (any Invalidatable).self,
    (any ViewInvalidatingType).self, (any ObjectInvalidatingType).self,
    ObjectInvalidating<Int>.self,
  ]
  _ = (events, token, changes, values, signalValues, answer, types)
}

/// Uses the property wrappers unqualified.
final class NamedModel {
  @ReadWrite(0) var count: Property<Int>
}

final class NamedView: PlatformView {
  @ViewInvalidating(.layout) var radius = 0.0
}
