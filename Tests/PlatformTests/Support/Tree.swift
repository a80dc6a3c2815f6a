import InvalidatingPlatform

/// A three-level tree hosted by a fresh loop, settled (nothing pending) and with an empty log:
///
///     root
///     ├── left
///     │   └── leaf
///     └── right
@MainActor
struct Tree {
  let log = PassLog()
  let loop = RenderLoop()
  let root: RecordingView
  let left: RecordingView
  let leaf: RecordingView
  let right: RecordingView

  init() {
    root = RecordingView("root", log: log)
    left = RecordingView("left", log: log)
    leaf = RecordingView("leaf", log: log)
    right = RecordingView("right", log: log)
    root.addSubview(left)
    left.addSubview(leaf)
    root.addSubview(right)
    loop.addRootView(root)
    loop.flush()
    loop.resetStatistics()
    log.removeAll()
  }

  var all: [RecordingView] { [root, left, leaf, right] }
}
