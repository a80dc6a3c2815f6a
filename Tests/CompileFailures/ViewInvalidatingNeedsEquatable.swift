// expect: generic struct 'ViewInvalidating' requires that 'Offset' conform to 'Equatable'
import Invalidating

// `@ViewInvalidating` invalidates only when the value really changes, so it compares values.
struct Offset {
  var x = 0.0
}

final class MarkerView: HeadlessView {
  @ViewInvalidating(.layout) var offset = Offset()
}
