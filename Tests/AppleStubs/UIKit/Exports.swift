// UIKit re-exports Foundation (and through it `NSObject`) and CoreGraphics, as the SDK's does.
@_exported import CoreGraphics
@_exported import Foundation
