import Invalidating
import Observation

// The view model row of issue 30: one iteration makes a view model of 10 relays and 5 computed
// properties (each of two relays), a view's first look at it (one effect on each computed
// property: a subscription, or a `withObservationTracking`), and releases it all.
//
//     ... --only=viewModel
//     ... --profile=workload-viewModel-observation --iterations=10000

/// A view model of 10 relays and 5 properties computed from them, as an app writes one.
final class RelayViewModel: Sendable {
  let first: BehaviorRelay<Int>
  let second: BehaviorRelay<Int>
  let third: BehaviorRelay<Int>
  let fourth: BehaviorRelay<Int>
  let fifth: BehaviorRelay<Int>
  let sixth: BehaviorRelay<Int>
  let seventh: BehaviorRelay<Int>
  let eighth: BehaviorRelay<Int>
  let ninth: BehaviorRelay<Int>
  let tenth: BehaviorRelay<Int>
  let firstPair: Property<Int>
  let secondPair: Property<Int>
  let thirdPair: Property<Int>
  let fourthPair: Property<Int>
  let fifthPair: Property<Int>

  /// Relay `k` (from 0) holds `start + k`.
  init(start: Int) {
    let first = BehaviorRelay(start)
    let second = BehaviorRelay(start + 1)
    let third = BehaviorRelay(start + 2)
    let fourth = BehaviorRelay(start + 3)
    let fifth = BehaviorRelay(start + 4)
    let sixth = BehaviorRelay(start + 5)
    let seventh = BehaviorRelay(start + 6)
    let eighth = BehaviorRelay(start + 7)
    let ninth = BehaviorRelay(start + 8)
    let tenth = BehaviorRelay(start + 9)
    (self.first, self.second, self.third, self.fourth, self.fifth) =
      (first, second, third, fourth, fifth)
    (self.sixth, self.seventh, self.eighth, self.ninth, self.tenth) =
      (sixth, seventh, eighth, ninth, tenth)
    firstPair = Property { first.value + second.value }
    secondPair = Property { third.value + fourth.value }
    thirdPair = Property { fifth.value + sixth.value }
    fourthPair = Property { seventh.value + eighth.value }
    fifthPair = Property { ninth.value + tenth.value }
  }

  var computedProperties: [Property<Int>] {
    [firstPair, secondPair, thirdPair, fourthPair, fifthPair]
  }
}

/// The same view model with Observation: 10 stored properties and 5 computed ones.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class ObservedViewModel {
  var first: Int
  var second: Int
  var third: Int
  var fourth: Int
  var fifth: Int
  var sixth: Int
  var seventh: Int
  var eighth: Int
  var ninth: Int
  var tenth: Int

  /// Stored property `k` (from 0) holds `start + k`.
  init(start: Int) {
    (first, second, third, fourth, fifth) = (start, start + 1, start + 2, start + 3, start + 4)
    (sixth, seventh, eighth, ninth, tenth) =
      (start + 5, start + 6, start + 7, start + 8, start + 9)
  }

  var firstPair: Int { first + second }
  var secondPair: Int { third + fourth }
  var thirdPair: Int { fifth + sixth }
  var fourthPair: Int { seventh + eighth }
  var fifthPair: Int { ninth + tenth }
}

/// What the view's effects receive from the view model made with `start`: the 5 pairs'
/// sums, `2 start + 1`, `2 start + 5`, ..., by plain arithmetic.
private func viewModelExpectedSum(start: Int) -> Int {
  (0..<5).reduce(0) { $0 + 2 * start + 4 * $1 + 1 }
}

extension ComputedWorkloads {
  func viewModel(_ check: WorkloadCheck) -> Workload {
    let effects = EffectCounter()
    let tally = CreationTally()
    var start = 0
    return Workload(counting: effects) {
      start = (start & 1_023) + 1
      tally.total = 0
      let model = RelayViewModel(start: start)
      let tokens = model.computedProperties.map { property in
        property.subscribe { value in
          effects.runs += 1
          tally.total += value
        }
      }
      check.equal(tally.total, viewModelExpectedSum(start: start), "the sum the view received")
      blackHole(tokens)
    }
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ObservationWorkloads {
  func viewModel(_ check: WorkloadCheck) -> Workload {
    let effects = EffectCounter()
    let tally = CreationTally()
    var start = 0
    return Workload(counting: effects) {
      start = (start & 1_023) + 1
      tally.total = 0
      let world = ObservationWorld(cachesComputeds: cachesComputeds)
      let model = ObservedViewModel(start: start)
      let properties = [
        world.computed { model.firstPair }, world.computed { model.secondPair },
        world.computed { model.thirdPair }, world.computed { model.fourthPair },
        world.computed { model.fifthPair },
      ]
      for property in properties { world.effect { tally.total += property() } }
      effects.runs += world.effects.runs
      check.equal(tally.total, viewModelExpectedSum(start: start), "the sum the view received")
    }
  }
}
