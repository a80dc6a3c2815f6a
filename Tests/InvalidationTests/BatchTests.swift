import InvalidatingCore
import InvalidatingInvalidation
import InvalidatingPlatform
import InvalidatingTestSupport
import Testing

private final class PanelView: RecordingView {
  @ViewInvalidating(.layout) var width = 0
  @ViewInvalidating(.layout, .display) var title = ""
  @ViewInvalidating(.display, .mark(1)) var color = 0
  @ViewInvalidating(.mark(1), .mark(2)) var border = 0
  @ViewInvalidating(.tag("first")) var first = 0
  @ViewInvalidating(.tag("second")) var second = 0
}

@MainActor
@Suite("@ViewInvalidating inside batch { }")
struct BatchTests {
  @Test("100 changes inside one batch cause one setNeedsLayout(), after the batch")
  func hundredChangesOneLayout() {
    let view = PanelView()
    batch {
      for width in 1...100 { view.width = width }
      #expect(view.calls.isEmpty)
      #expect(view.width == 100)
    }
    #expect(view.calls == ["layout"])
  }

  @Test("each invalidator reaches a view once, in the order first requested")
  func eachInvalidatorOnce() {
    let view = PanelView()
    batch {
      view.color = 1
      view.title = "a"
      view.width = 1
      view.border = 1
      view.color = 2
    }
    #expect(view.calls == ["display", "mark1", "layout", "mark2"])
  }

  @Test("differently configured Equatable invalidators all run")
  func equatableInvalidatorsAreDistinct() {
    let view = PanelView()
    batch { view.border = 1 }
    #expect(view.calls == ["mark1", "mark2"])
  }

  @Test("invalidators that are not Equatable are the same when their types are")
  func nonEquatableInvalidatorsMerge() {
    let view = PanelView()
    batch {
      view.first = 1
      view.second = 1
    }
    #expect(view.calls == ["tag-first"])
  }

  @Test("each view gets its own invalidations")
  func viewsAreSeparate() {
    let left = PanelView()
    let right = PanelView()
    batch {
      left.width = 1
      right.width = 1
      left.width = 2
    }
    #expect(left.calls == ["layout"])
    #expect(right.calls == ["layout"])
  }

  @Test("nested batches invalidate once, when the outermost ends")
  func nestedBatches() {
    let view = PanelView()
    batch {
      batch { view.width = 1 }
      #expect(view.calls.isEmpty)
      view.width = 2
    }
    #expect(view.calls == ["layout"])
  }

  @Test("$name's subscribers get the batch's last value once")
  func projectedValueInBatch() {
    let view = PanelView()
    let seen = Recorder<Int>()
    let token = view.$width.subscribe(seen.sink)
    batch {
      for width in 1...100 { view.width = width }
    }
    #expect(seen.values == [0, 100])
    token.cancel()
  }

  @Test("a batch that sets a value back to the original still invalidates once")
  func changedAndRestored() {
    let view = PanelView()
    batch {
      view.width = 1
      view.width = 0
    }
    #expect(view.calls == ["layout"])
  }
}
