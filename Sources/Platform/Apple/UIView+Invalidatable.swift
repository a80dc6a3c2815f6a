#if canImport(UIKit)
  import InvalidatingCore
  import UIKit

  // UIKit's views are the platform views: the engine invalidates them directly, and the
  // invalidators call UIKit's own `setNeeds...` methods on them.
  extension UIView: Invalidatable {}
#endif
