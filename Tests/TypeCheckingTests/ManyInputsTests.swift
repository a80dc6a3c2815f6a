import InvalidatingBinding
import InvalidatingCore
import InvalidatingTestSupport
import Testing

// The documented way to compute one value from ten or more inputs of different types: the
// combined property in a statement of its own, then `map`. This target is compiled with a
// type-checking budget per expression (see Package.swift): CI builds it with warnings as
// errors, so a spelling, an overload or a compiler change that makes these expressions slow
// to type-check fails the build rather than passing unnoticed. Written as one expression,
// `Property.combineLatest(...).map { ... }` over these inputs fails to type-check at all.

@Suite struct ManyInputsTests {
  /// Ten relays of ten different types, each with a first value and a second one.
  struct Inputs {
    let count = BehaviorRelay(2)
    let price = BehaviorRelay(9.5)
    let name = BehaviorRelay("tea")
    let isMember = BehaviorRelay(false)
    let tags = BehaviorRelay(["hot"])
    let discount = BehaviorRelay<Int?>(nil)
    let weight = BehaviorRelay(Float(0.25))
    let rating = BehaviorRelay(UInt8(4))
    let note = BehaviorRelay("")
    let extras = BehaviorRelay([1, 2])

    /// Gives every relay its second value, in one batch.
    func change() {
      batch {
        count.accept(3)
        price.accept(20.25)
        name.accept("green tea")
        isMember.accept(true)
        tags.accept(["hot", "large"])
        discount.accept(4)
        weight.accept(1.5)
        rating.accept(5)
        note.accept("no sugar")
        extras.accept([1, 2, 3])
      }
    }
  }

  @Test func tenInputsOfDifferentTypesWithOperators() {
    let inputs = Inputs()
    let combined = Property.combineLatest(
      inputs.count, inputs.price, inputs.name, inputs.isMember, inputs.tags, inputs.discount,
      inputs.weight, inputs.rating, inputs.note, inputs.extras)
    let points = combined.map {
      count, price, name, isMember, tags, discount, weight, rating, note, extras in
      count * 10 + Int(price) + name.count + (isMember ? 50 : 0) + tags.count - (discount ?? 0)
        + Int(weight * 4) + Int(rating) + note.count + extras.count
    }
    // 20 + 9 + 3 + 0 + 1 - 0 + 1 + 4 + 0 + 2
    #expect(points.value == 40)
    let seen = Recorder<Int>()
    let token = points.changes.subscribe(seen.sink)
    inputs.change()
    // 30 + 20 + 9 + 50 + 2 - 4 + 6 + 5 + 8 + 3: one delivery for the batch of ten writes.
    #expect(seen.values == [129])
    _ = token
  }

  @Test func tenInputsSummedWithPositionalArguments() {
    let relays = (0..<10).map { BehaviorRelay($0) }
    let r = relays
    let combined = Property.combineLatest(
      r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9])
    let sum = combined.map { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }
    #expect(sum.value == 45)
    r[9].accept(100)
    #expect(sum.value == 136)
  }

  @Test func twelveInputsIntoAStringWithInterpolation() {
    let inputs = Inputs()
    let first = BehaviorRelay(Character("a"))
    let last = BehaviorRelay(Int64(-1))
    let combined = Property.combineLatest(
      inputs.count, inputs.price, inputs.name, inputs.isMember, inputs.tags, inputs.discount,
      inputs.weight, inputs.rating, inputs.note, inputs.extras, first, last)
    let summary = combined.map {
      "\($0) \($1) \($2) \($3) \($4) \($5 ?? 0) \($6) \($7) \($8) \($9) \($10) \($11)"
    }
    #expect(summary.value == #"2 9.5 tea false ["hot"] 0 0.25 4  [1, 2] a -1"#)
    inputs.change()
    #expect(
      summary.value == #"3 20.25 green tea true ["hot", "large"] 4 1.5 5 no sugar [1, 2, 3] a -1"#)
  }
}
