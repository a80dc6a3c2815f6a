// expect: <unknown>:0: error: static subscript 'subscript(_enclosingInstance:wrapped:storage:)' requires that 'TitleModel' inherit from 'HeadlessView'
import Invalidating

// `@ViewInvalidating` reaches its view through the enclosing-instance subscript, which only a
// view class can provide. The compiler reports the mismatch with no file or line (the call is
// synthesized); the Troubleshooting article quotes this message.
final class TitleModel {
  @ViewInvalidating(.display) var title = ""
}
