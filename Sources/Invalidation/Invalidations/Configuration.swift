#if canImport(UIKit)
  import InvalidatingPlatform
  import UIKit

  @available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
  @available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
  extension Invalidations {
    /// A change that invalidates the view's configuration.
    ///
    /// Calls `setNeedsUpdateConfiguration()` on the views that have one: collection view
    /// cells, table view cells and table header and footer views from iOS and tvOS 14, buttons
    /// from iOS and tvOS 15. On other views, and on older systems, it does nothing.
    ///
    /// Create it with ``ViewInvalidatingType/configuration``:
    /// `@ViewInvalidating(.configuration) var ...`.
    ///
    /// > Important: This is a back-port of UIKit's UIView.Invalidations.Configuration.
    /// >
    /// > Deprecated only from iOS and tvOS 15 on, where Apple's type exists;
    /// > on iOS and tvOS 13 and 14, this is the one to use.
    @available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations.Configuration")
    @available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations.Configuration")
    public struct Configuration: ViewInvalidatingType, Sendable {
      /// Creates the invalidation.
      public nonisolated init() {}

      /// Requests a configuration update of `view`, at once, where the view and the system
      /// support one.
      ///
      /// - Parameter view: The view to invalidate.
      public func invalidate(view: PlatformView) {
        if #available(iOS 15.0, tvOS 15.0, *), let button = view as? UIButton {
          button.setNeedsUpdateConfiguration()
        } else if #available(iOS 14.0, tvOS 14.0, *) {
          if let cell = view as? UICollectionViewCell {
            cell.setNeedsUpdateConfiguration()
          } else if let cell = view as? UITableViewCell {
            cell.setNeedsUpdateConfiguration()
          } else if let headerFooter = view as? UITableViewHeaderFooterView {
            headerFooter.setNeedsUpdateConfiguration()
          }
        }
      }
    }
  }

  @available(iOS, deprecated: 15.0, message: "Use UIView.Invalidations")
  @available(tvOS, deprecated: 15.0, message: "Use UIView.Invalidations")
  extension ViewInvalidatingType where Self == Invalidations.Configuration {
    /// A change that invalidates the view's configuration.
    ///
    /// `@ViewInvalidating(.configuration) var ...` requests a configuration update whenever
    /// the property changes, on the views that support one.
    ///
    /// > Important: This is a back-port of UIKit's UIViewInvalidating.configuration.
    /// >
    /// > Deprecated only from iOS and tvOS 15 on, where Apple's member exists;
    /// > on iOS and tvOS 13 and 14, this is the one to use.
    @available(iOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .configuration")
    @available(tvOS, deprecated: 15.0, message: "UIView.Invalidating takes its own .configuration")
    public nonisolated static var configuration: Self { Self() }
  }
#endif
