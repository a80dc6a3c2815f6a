/// The keys of the live mode, read from the bytes a terminal sends.
///
/// A terminal sends a special key as an escape sequence that starts with the Escape byte
/// (27): an arrow key is `ESC [ A` (or `ESC O A` in application mode), a function key
/// `ESC [ 1 5 ~`. Escape alone is a quit key, so a sequence must be read whole, not byte by
/// byte: a byte 27 quits only when no sequence follows it in the same read (a terminal writes
/// a key's sequence at once). `ESC` followed by another byte is that key with Alt held, and
/// does not quit either.
public enum LiveKeys {
  /// What a read of keys asks for.
  public enum Action: Hashable, Sendable {
    /// Nothing: no quit key among them.
    case none
    /// End the run: `q`, `Q`, Ctrl-C or Escape alone.
    case quit
  }

  /// What the bytes of one read ask for.
  ///
  /// - Parameter bytes: The bytes one read returned, in order.
  /// - Returns: ``Action/quit`` when they hold a quit key outside every escape sequence.
  public static func action(for bytes: [UInt8]) -> Action {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3:
        return .quit
      case 27:
        guard index < bytes.count else { return .quit }
        index = endOfSequence(in: bytes, after: index)
      default:
        continue
      }
    }
    return .none
  }

  /// The index after the escape sequence whose Escape byte is just before `start`: a control
  /// sequence (`[`, parameters and intermediates, one final byte from `@` to `~`), a
  /// three-byte `O` sequence, or one byte with Alt held.
  private static func endOfSequence(in bytes: [UInt8], after start: Int) -> Int {
    switch bytes[start] {
    case UInt8(ascii: "["):
      var index = start + 1
      // Parameter bytes 0x30-0x3F and intermediate bytes 0x20-0x2F, then the final byte.
      while index < bytes.count, (0x20...0x3F).contains(bytes[index]) { index += 1 }
      return min(index + 1, bytes.count)
    case UInt8(ascii: "O"):
      return min(start + 2, bytes.count)
    default:
      return start + 1
    }
  }
}
