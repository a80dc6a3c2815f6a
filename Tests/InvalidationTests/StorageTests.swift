import InvalidatingInvalidation
import InvalidatingPlatform
import Testing

/// The stored fields of a wrapper, found by name with `Mirror` (the fields are internal).
private func field(_ path: String..., of value: Any) -> Any? {
  var current: Any = value
  for name in path {
    guard let child = Mirror(reflecting: current).children.first(where: { $0.label == name })
    else { return nil }
    current = child.value
  }
  return current
}

/// The capacity of the array that holds a wrapper's custom invalidators: 0 means the array
/// is Swift's shared empty storage, and nothing was allocated for it.
private func customsCapacity(of wrapper: Any) -> Int? {
  (field("invalidations", "customs", of: wrapper) as? [any ViewInvalidatingType])?.capacity
}

@MainActor
@Suite("What a @ViewInvalidating property stores")
struct StorageTests {
  @Test("the wrapper is the value plus four words, whatever the invalidations")
  func memoryLayout() {
    // The value, the 64-bit invalidation codes, the custom-invalidator array reference, the
    // optional projection reference, and the scope in which the invalidations were last
    // requested (what lets a batch of sets request them once).
    #expect(MemoryLayout<ViewInvalidating<Int>>.size == MemoryLayout<Int>.size + 32)
    #expect(MemoryLayout<ViewInvalidating<Double>>.size == 40)
    #expect(MemoryLayout<ViewInvalidating<String>>.size == MemoryLayout<String>.size + 32)
  }

  @Test("built-in invalidations allocate nothing: no custom storage, no projection")
  func builtInsAllocateNothing() {
    let wrapper = ViewInvalidating(
      wrappedValue: 0, .layout, .display, .constraints, .intrinsicContentSize, .layout,
      .display, .constraints, .intrinsicContentSize, .layout, .display)
    #expect(customsCapacity(of: wrapper) == 0)
    let projection = field("storage", "projection", of: wrapper)
    #expect(projection.map { "\($0)" } == "nil")
  }

  @Test("custom invalidators are kept in an array, only when present")
  func customsAreStoredInOrder() {
    let wrapper = ViewInvalidating(wrappedValue: 0, .layout, .mark(1), .display, .mark(2))
    let customs = field("invalidations", "customs", of: wrapper) as? [any ViewInvalidatingType]
    #expect(customs?.compactMap { ($0 as? Invalidations.Mark)?.number } == [1, 2])
  }

  @Test("a view's $name storage is created on first read only")
  func projectionIsLazy() {
    final class LazyView: HeadlessView {
      @ViewInvalidating(.layout) var width = 0
    }
    let view = LazyView()
    view.width = 1
    #expect(field("_width", "storage", "projection", of: view).map { "\($0)" } == "nil")
    _ = view.$width
    #expect(field("_width", "storage", "projection", of: view).map { "\($0)" } != "nil")
  }
}
