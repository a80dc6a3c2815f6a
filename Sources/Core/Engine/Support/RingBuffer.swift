/// A first-in, first-out queue over a reusable buffer.
///
/// Appending and removing never allocate once the buffer has grown to the queue's high-water
/// mark, which keeps queued (re-entrant or contended) writes off the allocator.
@usableFromInline
package struct RingBuffer<Element> {
  @usableFromInline var storage: ContiguousArray<Element?> = []
  @usableFromInline var head = 0
  @usableFromInline package private(set) var count = 0

  /// An empty queue. (Inlinable: a queue made in specialized code, a relay's, then needs no
  /// lookup of `Element?`'s metadata at run time, which cost a fifth of making a relay.)
  @inlinable
  package init() {}

  @inlinable
  package var isEmpty: Bool { count == 0 }

  /// - Complexity: Amortized O(1).
  @inlinable
  package mutating func append(_ element: Element) {
    if count == storage.count { grow() }
    var index = head + count
    if index >= storage.count { index -= storage.count }
    storage[index] = element
    count += 1
  }

  /// Inserts `element` ahead of every other: the next `popFirst()` returns it.
  ///
  /// - Complexity: Amortized O(1).
  package mutating func prepend(_ element: Element) {
    if count == storage.count { grow() }
    head = head == 0 ? storage.count - 1 : head - 1
    storage[head] = element
    count += 1
  }

  /// Removes and returns the oldest element, or `nil` when empty.
  @inlinable
  package mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = storage[head].take()
    head += 1
    if head == storage.count { head = 0 }
    count -= 1
    return element
  }

  /// Moves every element of `other` to the end of this queue, oldest first.
  package mutating func append(contentsOf other: inout RingBuffer<Element>) {
    while let element = other.popFirst() { append(element) }
  }

  @usableFromInline
  mutating func grow() {
    var grown = ContiguousArray<Element?>(repeating: nil, count: Swift.max(4, storage.count * 2))
    for offset in 0..<count {
      var index = head + offset
      if index >= storage.count { index -= storage.count }
      grown[offset] = storage[index].take()
    }
    storage = grown
    head = 0
  }
}
