/// A grid of characters that views' text outputs are composited onto.
struct TextCanvas {
  /// A rectangle of whole cells: the unit of a text canvas.
  struct Cells {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The cells of `rect` after rounding its edges to the nearest cell.
    init(_ rect: ViewRect, offsetX: Int = 0, offsetY: Int = 0) {
      let left = Int(rect.minX.rounded()) + offsetX
      let top = Int(rect.minY.rounded()) + offsetY
      self.init(
        x: left, y: top,
        width: max(0, Int(rect.maxX.rounded()) + offsetX - left),
        height: max(0, Int(rect.maxY.rounded()) + offsetY - top))
    }

    init(x: Int, y: Int, width: Int, height: Int) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }

    /// The cells in both rectangles; empty when they do not overlap.
    func intersection(_ other: Cells) -> Cells {
      let left = max(x, other.x)
      let top = max(y, other.y)
      let right = min(x + width, other.x + other.width)
      let bottom = min(y + height, other.y + other.height)
      return Cells(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    var isEmpty: Bool { width == 0 || height == 0 }
  }

  private var rows: [[Character]]

  /// A canvas of `width` by `height` spaces.
  init(width: Int, height: Int) {
    rows = Array(repeating: Array(repeating: " ", count: max(0, width)), count: max(0, height))
  }

  /// The whole canvas.
  var bounds: Cells {
    Cells(x: 0, y: 0, width: rows.first?.count ?? 0, height: rows.count)
  }

  /// Writes `text` with its first character at (`x`, `y`), one line per row, keeping only the
  /// characters that fall inside `clip`. Cells past the end of a line are left as they were.
  mutating func draw(_ text: String, x: Int, y: Int, clip: Cells) {
    let clip = clip.intersection(bounds)
    guard !clip.isEmpty, !text.isEmpty else { return }
    var row = y
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      defer { row += 1 }
      if row < clip.y { continue }
      if row >= clip.y + clip.height { break }
      var column = x
      for character in line {
        defer { column += 1 }
        if column < clip.x { continue }
        if column >= clip.x + clip.width { break }
        rows[row][column] = character
      }
    }
  }

  /// The canvas, one line per row.
  var text: String {
    rows.map { String($0) }.joined(separator: "\n")
  }
}
