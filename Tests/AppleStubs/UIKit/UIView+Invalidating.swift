// A stand-in for UIKit's own invalidation API (iOS 15.0, tvOS 15.0): the wrapper the back-port's
// fix-its lead to, its protocol and its built-in invalidations, with the shapes of Apple's
// documentation (developer.apple.com/documentation/uikit/uiview/invalidating and
// .../uiviewinvalidating). `scripts/check-apple-glue` compiles the migrated code and the fix-it
// check against it. Type-checking only: no body does anything.
//
// As documented, the protocol is not isolated to the main actor and neither is
// `invalidate(view:)`, although `UIView` is: a conforming type that calls the view's
// main-actor methods must say how it gets there (see the migration article).

/// Stand-in for UIKit's `UIViewInvalidating`: a kind of invalidation a change causes in a view.
@available(iOS 15.0, tvOS 15.0, *)
public protocol UIViewInvalidating {
  /// Tells `view` that the aspect this type stands for is out of date.
  ///
  /// - Parameter view: The view to invalidate.
  func invalidate(view: UIView)
}

@available(iOS 15.0, tvOS 15.0, *)
extension UIView {
  /// Stand-in for UIKit's `UIView.Invalidating`: a property of a view that invalidates it when
  /// its value changes. It takes one to ten invalidations and has no projected value.
  @propertyWrapper
  public struct Invalidating<Value: Equatable, InvalidationType: UIViewInvalidating> {
    /// Unavailable, as in the SDK: the property is reached through the enclosing instance.
    @available(*, unavailable, message: "stand-in: only properties of views can use it")
    public var wrappedValue: Value {
      get { fatalError("stand-in") }
      set {}
    }

    /// Reads and writes the property of the view that declares it.
    public static subscript<EnclosingSelf: UIView>(
      _enclosingInstance observed: EnclosingSelf,
      wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
      storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
      get { fatalError("stand-in") }
      set {}
    }

    /// Creates the property with one invalidation.
    public init(wrappedValue: Value, _ invalidation: InvalidationType) {}

    /// Creates the property with 2 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating
    {}

    /// Creates the property with 3 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<
        UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>, InvalidationType3
      >,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating,
      InvalidationType3: UIViewInvalidating
    {}

    /// Creates the property with 4 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3, InvalidationType4
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3, _ invalidation4: InvalidationType4
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<
        UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
        UIView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
      >,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating,
      InvalidationType3: UIViewInvalidating,
      InvalidationType4: UIViewInvalidating
    {}

    /// Creates the property with 5 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3, InvalidationType4, InvalidationType5
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3, _ invalidation4: InvalidationType4,
      _ invalidation5: InvalidationType5
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<
        UIView.Invalidations.Tuple<
          UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
          UIView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
        >, InvalidationType5
      >,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating,
      InvalidationType3: UIViewInvalidating,
      InvalidationType4: UIViewInvalidating,
      InvalidationType5: UIViewInvalidating
    {}

    /// Creates the property with 6 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3, InvalidationType4, InvalidationType5,
      InvalidationType6
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3, _ invalidation4: InvalidationType4,
      _ invalidation5: InvalidationType5, _ invalidation6: InvalidationType6
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<
        UIView.Invalidations.Tuple<
          UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
          UIView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
        >, UIView.Invalidations.Tuple<InvalidationType5, InvalidationType6>
      >,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating,
      InvalidationType3: UIViewInvalidating,
      InvalidationType4: UIViewInvalidating,
      InvalidationType5: UIViewInvalidating,
      InvalidationType6: UIViewInvalidating
    {}

    /// Creates the property with 7 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3, InvalidationType4, InvalidationType5,
      InvalidationType6, InvalidationType7
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3, _ invalidation4: InvalidationType4,
      _ invalidation5: InvalidationType5, _ invalidation6: InvalidationType6,
      _ invalidation7: InvalidationType7
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<
        UIView.Invalidations.Tuple<
          UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
          UIView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
        >,
        UIView.Invalidations.Tuple<
          UIView.Invalidations.Tuple<InvalidationType5, InvalidationType6>, InvalidationType7
        >
      >,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating,
      InvalidationType3: UIViewInvalidating,
      InvalidationType4: UIViewInvalidating,
      InvalidationType5: UIViewInvalidating,
      InvalidationType6: UIViewInvalidating,
      InvalidationType7: UIViewInvalidating
    {}

    /// Creates the property with 8 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3, InvalidationType4, InvalidationType5,
      InvalidationType6, InvalidationType7, InvalidationType8
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3, _ invalidation4: InvalidationType4,
      _ invalidation5: InvalidationType5, _ invalidation6: InvalidationType6,
      _ invalidation7: InvalidationType7, _ invalidation8: InvalidationType8
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<
        UIView.Invalidations.Tuple<
          UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
          UIView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
        >,
        UIView.Invalidations.Tuple<
          UIView.Invalidations.Tuple<InvalidationType5, InvalidationType6>,
          UIView.Invalidations.Tuple<InvalidationType7, InvalidationType8>
        >
      >,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating,
      InvalidationType3: UIViewInvalidating,
      InvalidationType4: UIViewInvalidating,
      InvalidationType5: UIViewInvalidating,
      InvalidationType6: UIViewInvalidating,
      InvalidationType7: UIViewInvalidating,
      InvalidationType8: UIViewInvalidating
    {}

    /// Creates the property with 9 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3, InvalidationType4, InvalidationType5,
      InvalidationType6, InvalidationType7, InvalidationType8, InvalidationType9
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3, _ invalidation4: InvalidationType4,
      _ invalidation5: InvalidationType5, _ invalidation6: InvalidationType6,
      _ invalidation7: InvalidationType7, _ invalidation8: InvalidationType8,
      _ invalidation9: InvalidationType9
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<
        UIView.Invalidations.Tuple<
          UIView.Invalidations.Tuple<
            UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
            UIView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
          >,
          UIView.Invalidations.Tuple<
            UIView.Invalidations.Tuple<InvalidationType5, InvalidationType6>,
            UIView.Invalidations.Tuple<InvalidationType7, InvalidationType8>
          >
        >, InvalidationType9
      >,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating,
      InvalidationType3: UIViewInvalidating,
      InvalidationType4: UIViewInvalidating,
      InvalidationType5: UIViewInvalidating,
      InvalidationType6: UIViewInvalidating,
      InvalidationType7: UIViewInvalidating,
      InvalidationType8: UIViewInvalidating,
      InvalidationType9: UIViewInvalidating
    {}

    /// Creates the property with 10 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3, InvalidationType4, InvalidationType5,
      InvalidationType6, InvalidationType7, InvalidationType8, InvalidationType9, InvalidationType10
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3, _ invalidation4: InvalidationType4,
      _ invalidation5: InvalidationType5, _ invalidation6: InvalidationType6,
      _ invalidation7: InvalidationType7, _ invalidation8: InvalidationType8,
      _ invalidation9: InvalidationType9, _ invalidation10: InvalidationType10
    )
    where
      InvalidationType == UIView.Invalidations.Tuple<
        UIView.Invalidations.Tuple<
          UIView.Invalidations.Tuple<
            UIView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
            UIView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
          >,
          UIView.Invalidations.Tuple<
            UIView.Invalidations.Tuple<InvalidationType5, InvalidationType6>,
            UIView.Invalidations.Tuple<InvalidationType7, InvalidationType8>
          >
        >, UIView.Invalidations.Tuple<InvalidationType9, InvalidationType10>
      >,
      InvalidationType1: UIViewInvalidating,
      InvalidationType2: UIViewInvalidating,
      InvalidationType3: UIViewInvalidating,
      InvalidationType4: UIViewInvalidating,
      InvalidationType5: UIViewInvalidating,
      InvalidationType6: UIViewInvalidating,
      InvalidationType7: UIViewInvalidating,
      InvalidationType8: UIViewInvalidating,
      InvalidationType9: UIViewInvalidating,
      InvalidationType10: UIViewInvalidating
    {}

  }

  /// Stand-in for UIKit's `UIView.Invalidations`: the built-in invalidations.
  public enum Invalidations {
    /// Stand-in for `UIView.Invalidations.Layout`: the layout of the subviews.
    public struct Layout: UIViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: UIView) {}
    }

    /// Stand-in for `UIView.Invalidations.Display`: the drawn content.
    public struct Display: UIViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: UIView) {}
    }

    /// Stand-in for `UIView.Invalidations.Constraints`: the constraints.
    public struct Constraints: UIViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: UIView) {}
    }

    /// Stand-in for `UIView.Invalidations.IntrinsicContentSize`: the intrinsic content size.
    public struct IntrinsicContentSize: UIViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: UIView) {}
    }

    /// Stand-in for `UIView.Invalidations.Configuration`: the configuration.
    public struct Configuration: UIViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: UIView) {}
    }

    /// Stand-in for `UIView.Invalidations.Tuple`: two invalidations performed together.
    public struct Tuple<Invalidation1: UIViewInvalidating, Invalidation2: UIViewInvalidating>:
      UIViewInvalidating
    {
      /// Combines two invalidations.
      public init(_ invalidation1: Invalidation1, _ invalidation2: Invalidation2) {}
      /// Invalidates `view` both ways.
      public func invalidate(view: UIView) {}
    }
  }
}

@available(iOS 15.0, tvOS 15.0, *)
extension UIViewInvalidating where Self == UIView.Invalidations.Layout {
  /// Stand-in for `UIViewInvalidating.layout`.
  public static var layout: UIView.Invalidations.Layout { .init() }
}

@available(iOS 15.0, tvOS 15.0, *)
extension UIViewInvalidating where Self == UIView.Invalidations.Display {
  /// Stand-in for `UIViewInvalidating.display`.
  public static var display: UIView.Invalidations.Display { .init() }
}

@available(iOS 15.0, tvOS 15.0, *)
extension UIViewInvalidating where Self == UIView.Invalidations.Constraints {
  /// Stand-in for `UIViewInvalidating.constraints`.
  public static var constraints: UIView.Invalidations.Constraints { .init() }
}

@available(iOS 15.0, tvOS 15.0, *)
extension UIViewInvalidating where Self == UIView.Invalidations.IntrinsicContentSize {
  /// Stand-in for `UIViewInvalidating.intrinsicContentSize`.
  public static var intrinsicContentSize: UIView.Invalidations.IntrinsicContentSize { .init() }
}

@available(iOS 15.0, tvOS 15.0, *)
extension UIViewInvalidating where Self == UIView.Invalidations.Configuration {
  /// Stand-in for `UIViewInvalidating.configuration`.
  public static var configuration: UIView.Invalidations.Configuration { .init() }
}
