import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

@Suite struct CombineLatestTests {
  @Test func twoInputs() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay("x")
    let pair: Property<(Int, String)> = Property.combineLatest(a.asProperty(), b.asProperty())
    let seen = Recorder<String>()
    let token = pair.subscribe { seen.record("\($0)") }
    a.accept(2)
    b.accept("y")
    #expect(seen.values == [#"(1, "x")"#, #"(2, "x")"#, #"(2, "y")"#])
    #expect(pair.value == (2, "y"))
    _ = token
  }

  @Test func threeInputs() {
    let a = BehaviorRelay(1)
    let b = BehaviorRelay(2.5)
    let c = BehaviorRelay(true)
    let triple = Property.combineLatest(a.asProperty(), b.asProperty(), c.asProperty())
    let seen = Recorder<String>()
    let token = triple.subscribe { seen.record("\($0)") }
    c.accept(false)
    a.accept(3)
    #expect(seen.values == ["(1, 2.5, true)", "(1, 2.5, false)", "(3, 2.5, false)"])
    _ = token
  }

  @Test func sixInputs() {
    let relays = (0..<6).map { BehaviorRelay($0) }
    let p = relays.map { $0.asProperty() }
    let six = Property.combineLatest(p[0], p[1], p[2], p[3], p[4], p[5])
    let seen = Recorder<String>()
    let token = six.subscribe { seen.record("\($0)") }
    relays[5].accept(50)
    relays[0].accept(10)
    #expect(
      seen.values == ["(0, 1, 2, 3, 4, 5)", "(0, 1, 2, 3, 4, 50)", "(10, 1, 2, 3, 4, 50)"])
    _ = token
  }

  @Test func aDiamondRunsItsSinkOncePerWriteWithAConsistentPair() {
    let a = BehaviorRelay(1)
    let b = a.asProperty().map { $0 * 10 }
    let c = a.asProperty().map { $0 * 100 }
    let d = Property.combineLatest(b, c)
    let seen = Recorder<String>()
    let token = d.subscribe { seen.record("\($0)") }
    a.accept(2)
    a.accept(3)
    #expect(seen.values == ["(10, 100)", "(20, 200)", "(30, 300)"])
    _ = token
  }

  @Test func aThousandAcceptsInOneBatchRunTheSinkOnceWithTheFinalTuple() {
    let a = BehaviorRelay(0)
    let b = BehaviorRelay(0)
    let c = BehaviorRelay(0)
    let combined = Property.combineLatest(a.asProperty(), b.asProperty(), c.asProperty())
    let seen = Recorder<String>()
    let token = combined.changes.subscribe { seen.record("\($0)") }
    batch {
      for step in 1...1_000 {
        switch step % 3 {
        case 0: a.accept(step)
        case 1: b.accept(step)
        default: c.accept(step)
        }
      }
    }
    #expect(seen.values == ["(999, 1000, 998)"])
    _ = token
  }

  @Test func theSameInputTwiceGivesEqualElements() {
    let a = BehaviorRelay(1)
    let twice = Property.combineLatest(a.asProperty(), a.asProperty())
    let seen = Recorder<String>()
    let token = twice.subscribe { seen.record("\($0)") }
    a.accept(2)
    #expect(seen.values == ["(1, 1)", "(2, 2)"])
    _ = token
  }

  @Test func oneInputIsThatInput() {
    let a = BehaviorRelay(1)
    let single: Property<Int> = Property.combineLatest(a.asProperty())
    a.accept(4)
    #expect(single.value == 4)
  }
}
