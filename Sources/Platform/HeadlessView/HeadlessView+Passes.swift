/// The three passes over a view's subtree, shared by the `...IfNeeded()` methods and the
/// render loop. Each visits only the branches marked by `propagateFlushRequest()` and returns
/// how many views it ran its pass on.
///
/// Each loops over the subviews as they were when it started, skipping any a pass has moved
/// out of the receiver (no longer this tree's to flush); whether a subview needs the pass is
/// asked when its turn comes, so a sibling marked by an earlier sibling's pass gets it in the
/// same tick.
extension HeadlessView {
  /// Runs `updateProperties()` on every view of the subtree that needs it, root first, so that
  /// a parent can hand its subviews what they show in the same pass.
  func updatePropertiesInSubtree() -> Int {
    guard subtreeNeedsFlush else { return 0 }
    var count = 0
    if needsUpdateProperties {
      needsUpdateProperties = false
      runTracked(.updateProperties) { updateProperties() }
      count += 1
    }
    for subview in subviews where subview.superview === self {
      count += subview.updatePropertiesInSubtree()
    }
    return count
  }

  /// Runs `updateConstraints()` on every view of the subtree that needs it, leaves first.
  func updateConstraintsInSubtree() -> Int {
    guard subtreeNeedsFlush else { return 0 }
    var count = 0
    for subview in subviews where subview.superview === self {
      count += subview.updateConstraintsInSubtree()
    }
    if needsUpdateConstraints {
      needsUpdateConstraints = false
      updateConstraints()
      count += 1
    }
    return count
  }

  /// Runs `layoutSubviews()` on every view of the subtree that needs it, root first, so that
  /// frames a parent sets are laid out in the same pass.
  func layOutSubtree() -> Int {
    guard subtreeNeedsFlush else { return 0 }
    var count = 0
    if needsLayout {
      needsLayout = false
      runTracked(.layout) { layoutSubviews() }
      count += 1
    }
    for subview in subviews where subview.superview === self {
      count += subview.layOutSubtree()
    }
    return count
  }

  /// Displays every view of the subtree that needs it, root first, then clears the branch
  /// marks of subtrees left with nothing pending.
  func displaySubtree() -> Int {
    guard subtreeNeedsFlush else { return 0 }
    var count = 0
    if needsDisplay {
      displayIfNeeded()
      count += 1
    }
    for subview in subviews where subview.superview === self {
      count += subview.displaySubtree()
    }
    // Requests made during this tick stay marked for the next one.
    subtreeNeedsFlush =
      needsUpdateProperties || needsUpdateConstraints || needsLayout || needsDisplay
      || subviews.contains { $0.subtreeNeedsFlush }
    return count
  }
}
