/// Shrinks a failing program: drops steps (and batch items, and whole batches, keeping or
/// dropping their contents), makes sinks plain recorders and computed properties' formulas
/// simpler, while the program still fails, until no single change keeps it failing.
enum Shrinker {
  /// The smallest program found that still makes `fails` return `true`, trying at most
  /// `budget` candidates.
  static func shrink(_ program: [Step], budget: Int = 4000, fails: ([Step]) -> Bool) -> [Step] {
    var current = program
    var tries = 0
    var improved = true
    while improved && tries < budget {
      improved = false
      for candidate in smaller(current) {
        tries += 1
        if fails(candidate) {
          current = candidate
          improved = true
          break
        }
        if tries >= budget { break }
      }
    }
    return current
  }

  /// Every program one removal smaller than `steps`, big removals first.
  static func smaller(_ steps: [Step]) -> [[Step]] {
    var result: [[Step]] = []
    // Halves and quarters first: most failing programs only need a few steps.
    var chunk = steps.count / 2
    while chunk >= 2 {
      for start in stride(from: 0, to: steps.count, by: chunk) {
        var candidate = steps
        candidate.removeSubrange(start..<min(start + chunk, steps.count))
        result.append(candidate)
      }
      chunk /= 2
    }
    for index in steps.indices.reversed() {
      var candidate = steps
      candidate.remove(at: index)
      result.append(candidate)
    }
    for (index, step) in steps.enumerated() {
      switch step {
      case .batch(let items):
        var flattened = steps
        flattened.replaceSubrange(index...index, with: items)
        result.append(flattened)
        for inner in smaller(items) {
          var candidate = steps
          candidate[index] = .batch(inner)
          result.append(candidate)
        }
      case .subscribe(let sink, let node, let emits, let behavior) where behavior != .record:
        var candidate = steps
        candidate[index] = .subscribe(sink, to: node, emitsCurrentValue: emits, .record)
        result.append(candidate)
      case .derive(let id, .computed(let formula), _):
        for simpler in formula.simpler {
          var candidate = steps
          candidate[index] = .derive(id, .computed(simpler), inputs: simpler.mentioned)
          result.append(candidate)
        }
      default:
        break
      }
    }
    return result
  }
}
