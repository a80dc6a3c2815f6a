// A stand-in for Apple's `ObjectiveC` module: the root class that UIKit's and AppKit's
// responders inherit from. Type-checking only: nothing here is linked or run.

/// Stand-in for Objective-C's `NSObject`, the root class of UIKit's and AppKit's classes.
///
/// Not isolated to any actor, as in the SDK. The SDK's `NSObject` also conforms to `Hashable`,
/// `CustomStringConvertible` and more; the package's sources use none of that, so it is not
/// declared (a use would fail here first, which is the safe direction).
open class NSObject {
  /// Creates an object.
  public init() {}
}
