extension RangeReplaceableCollection where Self: BidirectionalCollection {
  /// Removes every element, keeping the storage for the next use, one element at a time from
  /// the end.
  ///
  /// `removeAll(keepingCapacity: true)` goes through the generic range replacement
  /// (`replaceSubrange` with an empty collection): about 200 instructions for an array of a
  /// few elements, and more than that for a handful of class references, where each
  /// `removeLast()` is a few instructions and the element's release. The engine's scratch
  /// lists (a pull's order, a tracker's records, a batch's touched sources) hold a few
  /// elements and are emptied on every use.
  @inlinable
  mutating func removeAllKeepingStorage() {
    while !isEmpty { removeLast() }
  }
}
