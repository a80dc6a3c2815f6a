// The views that have a configuration to update, and `setNeedsUpdateConfiguration()` with the
// SDK's availability: cells and header/footer views from iOS 14, buttons from iOS 15.

/// Stand-in for UIKit's `UICollectionReusableView`.
@MainActor
open class UICollectionReusableView: UIView {}

/// Stand-in for UIKit's `UICollectionViewCell`.
@MainActor
open class UICollectionViewCell: UICollectionReusableView {
  /// Requests a configuration update.
  @available(iOS 14.0, tvOS 14.0, *)
  open func setNeedsUpdateConfiguration() {}
}

/// Stand-in for UIKit's `UITableViewCell`.
@MainActor
open class UITableViewCell: UIView {
  /// Requests a configuration update.
  @available(iOS 14.0, tvOS 14.0, *)
  open func setNeedsUpdateConfiguration() {}
}

/// Stand-in for UIKit's `UITableViewHeaderFooterView`.
@MainActor
open class UITableViewHeaderFooterView: UIView {
  /// Requests a configuration update.
  @available(iOS 14.0, tvOS 14.0, *)
  open func setNeedsUpdateConfiguration() {}
}

/// Stand-in for UIKit's `UIControl`.
@MainActor
open class UIControl: UIView {}

/// Stand-in for UIKit's `UIButton`.
@MainActor
open class UIButton: UIControl {
  /// Requests a configuration update.
  @available(iOS 15.0, tvOS 15.0, *)
  open func setNeedsUpdateConfiguration() {}
}
