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

  @Test("each batch invalidates anew: a property that invalidated in one batch does so in the next")
  func consecutiveBatches() {
    let view = PanelView()
    batch {
      view.width = 1
      view.width = 2
    }
    batch { view.width = 3 }
    view.width = 4
    #expect(view.calls == ["layout", "layout", "layout"])
  }

  @Test("forty views set in turn in one batch each get their invalidations once, in order")
  func manyViewsInOneBatch() {
    let views = (0..<40).map { _ in PanelView() }
    batch {
      for round in 1...3 {
        for view in views {
          view.title = "\(round)"
          view.width = round
        }
      }
    }
    for view in views { #expect(view.calls == ["layout", "display"]) }
  }

  @Test("a view released inside a batch does not take a later view's invalidation with it")
  func releasedViewDoesNotShadowANewOne() {
    var released: PanelView? = PanelView()
    var kept: [PanelView] = []
    batch {
      released!.width = 1
      released = nil
      // Fresh views may reuse the released one's address; each must still be invalidated.
      for width in 1...20 {
        let view = PanelView()
        view.width = width
        kept.append(view)
      }
    }
    for view in kept { #expect(view.calls == ["layout"]) }
  }
}
