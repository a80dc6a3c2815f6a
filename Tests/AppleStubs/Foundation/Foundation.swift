// A stand-in for Apple's `Foundation`, reduced to what UIKit's and AppKit's stand-ins need:
// `NSObject` (re-exported from `ObjectiveC`, as the SDK's Foundation does) and `NSCoder`, the
// parameter of the views' `init?(coder:)`. Type-checking only: nothing here is linked or run.
// The package's own sources import neither Foundation nor this module.
@_exported import ObjectiveC

/// Stand-in for Foundation's `NSCoder`, an `NSObject` subclass in the SDK.
open class NSCoder: NSObject {}
