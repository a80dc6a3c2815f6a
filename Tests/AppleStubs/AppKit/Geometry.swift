// AppKit re-exports Foundation (and through it `NSObject`) and CoreGraphics, and Foundation's
// NS geometry names for CoreGraphics' types.
@_exported import CoreGraphics
@_exported import Foundation

/// Stand-in for Foundation's `NSPoint`, which AppKit re-exports.
public typealias NSPoint = CGPoint

/// Stand-in for Foundation's `NSSize`, which AppKit re-exports.
public typealias NSSize = CGSize

/// Stand-in for Foundation's `NSRect`, which AppKit re-exports.
public typealias NSRect = CGRect
