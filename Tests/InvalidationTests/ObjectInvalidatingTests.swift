import InvalidatingCore
import InvalidatingInvalidation
import InvalidatingTestSupport
import Testing

/// What a Linux service renders and caches: a report fragment, not a view and not on the main
/// actor. Changing a property drops the cached output and notifies a channel.
private final class ReportFragment: Invalidatable {
  /// Drops the cached output, so the next read renders again.
  struct Rerender: ObjectInvalidatingType {
    func invalidate(object fragment: ReportFragment) {
      fragment.cached = nil
      fragment.log.append("rerender(\(fragment.title))")
    }
  }

  /// Tells subscribers of `channel` that the fragment changed.
  struct Notify: ObjectInvalidatingType, Equatable {
    let channel: String

    func invalidate(object fragment: ReportFragment) {
      fragment.log.append("notify-\(channel)")
    }
  }

  @ObjectInvalidating(Rerender(), Notify(channel: "a")) var title = "Report"
  @ObjectInvalidating(Notify(channel: "b"), Rerender()) var rows: [String] = []

  private var cached: String?
  private(set) var renders = 0
  var log: [String] = []

  /// The fragment's output, rendered on first read after a change.
  var html: String {
    if let cached { return cached }
    renders += 1
    let output = "<h1>\(title)</h1>" + rows.map { "<p>\($0)</p>" }.joined()
    cached = output
    return output
  }
}

/// A document whose subclasses' properties mark it as edited.
private class Document: Invalidatable {
  /// Counts an edit on any document.
  struct MarkEdited: ObjectInvalidatingType {
    func invalidate(object document: Document) { document.edits += 1 }
  }

  var edits = 0
}

/// A subclass whose property names an invalidator of its superclass.
private final class TextDocument: Document {
  @ObjectInvalidating(MarkEdited()) var text = ""
}

/// An owner that names another class's invalidator, which cannot be caught at compile time.
private final class MismatchedOwner: Invalidatable {
  @ObjectInvalidating(ReportFragment.Rerender()) var value = 0
}

@Suite("@ObjectInvalidating on an object that is not a view")
struct ObjectInvalidatingTests {
  @Test("a change drops the cache; an equal value keeps it")
  func changeInvalidates() {
    let fragment = ReportFragment()
    #expect(fragment.html == "<h1>Report</h1>")
    #expect(fragment.html == "<h1>Report</h1>")
    fragment.title = "Report"
    #expect(fragment.renders == 1)
    fragment.title = "Sales"
    #expect(fragment.html == "<h1>Sales</h1>")
    #expect(fragment.renders == 2)
  }

  @Test("the value is stored first, then invalidators run in argument order")
  func storeThenInvalidateInOrder() {
    let fragment = ReportFragment()
    fragment.title = "Sales"
    fragment.rows = ["north"]
    #expect(fragment.log == ["rerender(Sales)", "notify-a", "notify-b", "rerender(Sales)"])
  }

  @Test("inside a batch each invalidator runs once per object")
  func batchRunsEachOnce() {
    let fragment = ReportFragment()
    batch {
      for index in 0..<100 {
        fragment.title = "Title \(index)"
        fragment.rows = ["row \(index)"]
      }
      #expect(fragment.log.isEmpty)
    }
    #expect(fragment.log == ["rerender(Title 99)", "notify-a", "notify-b"])
  }

  @Test("an object released inside a batch is freed then, and its invalidations are dropped")
  func releasedInsideABatch() {
    let tracker = LifetimeTracker()
    batch {
      var fragment: ReportFragment? = ReportFragment()
      tracker.track(fragment!, "fragment")
      fragment!.title = "Draft"
      fragment = nil
      #expect(tracker.alive == [])
    }
    #expect(tracker.alive == [])
  }

  @Test("$name delivers each real change")
  func projectedValue() {
    let fragment = ReportFragment()
    let seen = Recorder<String>()
    let token = fragment.$title.subscribe(seen.sink)
    fragment.title = "A"
    fragment.title = "A"
    fragment.title = "B"
    #expect(seen.values == ["Report", "A", "B"])
    token.cancel()
  }

  @Test("works on an object used off the main actor")
  func offTheMainActor() async {
    let renders = await Task.detached {
      let fragment = ReportFragment()
      _ = fragment.html
      fragment.rows = ["x"]
      _ = fragment.html
      return fragment.renders
    }.value
    #expect(renders == 2)
  }

  @Test("an invalidator may name a superclass of the owner")
  func superclassInvalidator() {
    let document = TextDocument()
    document.text = "a"
    document.text = "a"
    document.text = "b"
    #expect(document.edits == 2)
  }

  @Test("an invalidator for another class traps at the first change, naming both")
  func mismatchedOwnerTraps() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      MismatchedOwner().value = 1
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Rerender invalidates ReportFragment"))
    #expect(message.contains("MismatchedOwner"))
  }
}
