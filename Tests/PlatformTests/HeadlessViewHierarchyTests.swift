import InvalidatingPlatform
import Testing

@MainActor
@Suite("HeadlessView hierarchy")
struct HeadlessViewHierarchyTests {
  @Test("addSubview links both ways, back to front, and marks the superview for layout")
  func addSubview() {
    let log = PassLog()
    let parent = RecordingView("parent", log: log)
    let first = HeadlessView()
    let second = HeadlessView()
    parent.addSubview(first)
    parent.addSubview(second)
    #expect(
      parent.subviews.map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))
    #expect(first.superview === parent && second.superview === parent)
    #expect(log.entries("setNeedsLayout").count == 2)
  }

  @Test("insertSubview places the view at the index; adding again moves it to the front")
  func insertAndReorder() {
    let parent = HeadlessView()
    let a = HeadlessView()
    let b = HeadlessView()
    let c = HeadlessView()
    parent.addSubview(a)
    parent.addSubview(b)
    parent.insertSubview(c, at: 0)
    #expect(parent.subviews.map(ObjectIdentifier.init) == [c, a, b].map(ObjectIdentifier.init))
    parent.addSubview(c)
    #expect(parent.subviews.map(ObjectIdentifier.init) == [a, b, c].map(ObjectIdentifier.init))
  }

  @Test("adding a view to another superview moves it")
  func moveBetweenSuperviews() {
    let first = HeadlessView()
    let second = HeadlessView()
    let child = HeadlessView()
    first.addSubview(child)
    second.addSubview(child)
    #expect(first.subviews.isEmpty)
    #expect(second.subviews.count == 1 && child.superview === second)
  }

  @Test("removeFromSuperview unlinks the view and marks the former superview for layout")
  func removeFromSuperview() {
    let tree = Tree()
    tree.leaf.removeFromSuperview()
    #expect(tree.leaf.superview == nil)
    #expect(tree.left.subviews.isEmpty)
    #expect(tree.log.entries == ["setNeedsLayout left"])
  }

  @Test("isDescendant(of:) follows superviews, including the view itself")
  func descendants() {
    let tree = Tree()
    #expect(tree.leaf.isDescendant(of: tree.root))
    #expect(tree.leaf.isDescendant(of: tree.leaf))
    #expect(!tree.leaf.isDescendant(of: tree.right))
    #expect(!tree.root.isDescendant(of: tree.leaf))
  }

  @Test("geometry values describe themselves")
  func geometry() {
    let rect = ViewRect(x: 1, y: 2, width: 3, height: 4)
    #expect(rect.maxX == 4 && rect.maxY == 6 && rect.minX == 1 && rect.minY == 2)
    #expect(rect.description == "(1.0, 2.0, 3.0 x 4.0)")
    #expect(ViewRect.zero.size == .zero && ViewRect.zero.origin == .zero)
  }
}
