// UIKit re-exports CoreGraphics, as the SDK's does.
@_exported import CoreGraphics
