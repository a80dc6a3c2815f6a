// expect: overriding non-open property outside of its defining module
// A subclass outside the package cannot change what a Property reads.
import Invalidating

final class Fake: Property<Int> {
  override var value: Int { 42 }
}
