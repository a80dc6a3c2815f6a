extension HeadlessView {
  /// Composites the cached output of the view and its subtree into one block of text, as a
  /// window server composites layers.
  ///
  /// The result has one line per row of ``HeadlessView/bounds`` (sizes rounded to whole
  /// characters), each as wide as the bounds. The view's ``HeadlessView/renderedText`` is
  /// placed at the top left, then each subview's, back to front, at its frame, clipped to its
  /// own bounds and its superview's. A character of an output covers what is beneath it;
  /// past the end of a line or below the last one, what is beneath shows through.
  ///
  /// Compositing runs no pass: it reads the outputs cached by the last display. Call it after
  /// a tick (in ``RenderLoop/didTick``, for example) to print a frame of a terminal dashboard.
  ///
  /// - Returns: The composited text, rows joined by `"\n"`.
  /// - Complexity: O(*v* + *c*), for *v* views in the subtree and *c* cells in the bounds.
  public func compositedText() -> String {
    let area = TextCanvas.Cells(bounds)
    var canvas = TextCanvas(width: area.width, height: area.height)
    composite(onto: &canvas, x: 0, y: 0, clip: canvas.bounds)
    return canvas.text
  }

  /// Draws this view's output with its top-left corner at (`x`, `y`) of the canvas, then its
  /// subviews relative to that corner, each clipped to `clip` and to its own bounds.
  private func composite(onto canvas: inout TextCanvas, x: Int, y: Int, clip: TextCanvas.Cells) {
    canvas.draw(renderedText, x: x, y: y, clip: clip)
    for subview in subviews {
      let area = TextCanvas.Cells(subview.frame, offsetX: x, offsetY: y)
      let visible = area.intersection(clip)
      guard !visible.isEmpty else { continue }
      subview.composite(onto: &canvas, x: area.x, y: area.y, clip: visible)
    }
  }
}
