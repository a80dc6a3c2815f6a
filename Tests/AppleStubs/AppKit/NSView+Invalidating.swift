// A stand-in for AppKit's own invalidation API (macOS 12.0): the wrapper the back-port's
// fix-its lead to, its protocol and its built-in invalidations, with the shapes of Apple's
// documentation (developer.apple.com/documentation/appkit/nsview/invalidating and
// .../nsviewinvalidating). `scripts/check-apple-glue` compiles the migrated code and the fix-it
// check against it. Type-checking only: no body does anything.
//
// As documented, the protocol is not isolated to the main actor and neither is
// `invalidate(view:)`, although `NSView` is: a conforming type that calls the view's
// main-actor methods must say how it gets there (see the migration article).

/// Stand-in for AppKit's `NSViewInvalidating`: a kind of invalidation a change causes in a view.
@available(macOS 12.0, *)
public protocol NSViewInvalidating {
  /// Tells `view` that the aspect this type stands for is out of date.
  ///
  /// - Parameter view: The view to invalidate.
  func invalidate(view: NSView)
}

@available(macOS 12.0, *)
extension NSView {
  /// Stand-in for AppKit's `NSView.Invalidating`: a property of a view that invalidates it when
  /// its value changes. It takes one to ten invalidations and has no projected value.
  @propertyWrapper
  public struct Invalidating<Value: Equatable, InvalidationType: NSViewInvalidating> {
    /// Unavailable, as in the SDK: the property is reached through the enclosing instance.
    @available(*, unavailable, message: "stand-in: only properties of views can use it")
    public var wrappedValue: Value {
      get { fatalError("stand-in") }
      set {}
    }

    /// Reads and writes the property of the view that declares it.
    public static subscript<EnclosingSelf: NSView>(
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
      InvalidationType == NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating
    {}

    /// Creates the property with 3 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3
    )
    where
      InvalidationType == NSView.Invalidations.Tuple<
        NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>, InvalidationType3
      >,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating,
      InvalidationType3: NSViewInvalidating
    {}

    /// Creates the property with 4 invalidations, combined as the SDK combines them.
    public init<
      InvalidationType1, InvalidationType2, InvalidationType3, InvalidationType4
    >(
      wrappedValue: Value, _ invalidation1: InvalidationType1, _ invalidation2: InvalidationType2,
      _ invalidation3: InvalidationType3, _ invalidation4: InvalidationType4
    )
    where
      InvalidationType == NSView.Invalidations.Tuple<
        NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
        NSView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
      >,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating,
      InvalidationType3: NSViewInvalidating,
      InvalidationType4: NSViewInvalidating
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
      InvalidationType == NSView.Invalidations.Tuple<
        NSView.Invalidations.Tuple<
          NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
          NSView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
        >, InvalidationType5
      >,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating,
      InvalidationType3: NSViewInvalidating,
      InvalidationType4: NSViewInvalidating,
      InvalidationType5: NSViewInvalidating
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
      InvalidationType == NSView.Invalidations.Tuple<
        NSView.Invalidations.Tuple<
          NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
          NSView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
        >, NSView.Invalidations.Tuple<InvalidationType5, InvalidationType6>
      >,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating,
      InvalidationType3: NSViewInvalidating,
      InvalidationType4: NSViewInvalidating,
      InvalidationType5: NSViewInvalidating,
      InvalidationType6: NSViewInvalidating
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
      InvalidationType == NSView.Invalidations.Tuple<
        NSView.Invalidations.Tuple<
          NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
          NSView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
        >,
        NSView.Invalidations.Tuple<
          NSView.Invalidations.Tuple<InvalidationType5, InvalidationType6>, InvalidationType7
        >
      >,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating,
      InvalidationType3: NSViewInvalidating,
      InvalidationType4: NSViewInvalidating,
      InvalidationType5: NSViewInvalidating,
      InvalidationType6: NSViewInvalidating,
      InvalidationType7: NSViewInvalidating
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
      InvalidationType == NSView.Invalidations.Tuple<
        NSView.Invalidations.Tuple<
          NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
          NSView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
        >,
        NSView.Invalidations.Tuple<
          NSView.Invalidations.Tuple<InvalidationType5, InvalidationType6>,
          NSView.Invalidations.Tuple<InvalidationType7, InvalidationType8>
        >
      >,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating,
      InvalidationType3: NSViewInvalidating,
      InvalidationType4: NSViewInvalidating,
      InvalidationType5: NSViewInvalidating,
      InvalidationType6: NSViewInvalidating,
      InvalidationType7: NSViewInvalidating,
      InvalidationType8: NSViewInvalidating
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
      InvalidationType == NSView.Invalidations.Tuple<
        NSView.Invalidations.Tuple<
          NSView.Invalidations.Tuple<
            NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
            NSView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
          >,
          NSView.Invalidations.Tuple<
            NSView.Invalidations.Tuple<InvalidationType5, InvalidationType6>,
            NSView.Invalidations.Tuple<InvalidationType7, InvalidationType8>
          >
        >, InvalidationType9
      >,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating,
      InvalidationType3: NSViewInvalidating,
      InvalidationType4: NSViewInvalidating,
      InvalidationType5: NSViewInvalidating,
      InvalidationType6: NSViewInvalidating,
      InvalidationType7: NSViewInvalidating,
      InvalidationType8: NSViewInvalidating,
      InvalidationType9: NSViewInvalidating
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
      InvalidationType == NSView.Invalidations.Tuple<
        NSView.Invalidations.Tuple<
          NSView.Invalidations.Tuple<
            NSView.Invalidations.Tuple<InvalidationType1, InvalidationType2>,
            NSView.Invalidations.Tuple<InvalidationType3, InvalidationType4>
          >,
          NSView.Invalidations.Tuple<
            NSView.Invalidations.Tuple<InvalidationType5, InvalidationType6>,
            NSView.Invalidations.Tuple<InvalidationType7, InvalidationType8>
          >
        >, NSView.Invalidations.Tuple<InvalidationType9, InvalidationType10>
      >,
      InvalidationType1: NSViewInvalidating,
      InvalidationType2: NSViewInvalidating,
      InvalidationType3: NSViewInvalidating,
      InvalidationType4: NSViewInvalidating,
      InvalidationType5: NSViewInvalidating,
      InvalidationType6: NSViewInvalidating,
      InvalidationType7: NSViewInvalidating,
      InvalidationType8: NSViewInvalidating,
      InvalidationType9: NSViewInvalidating,
      InvalidationType10: NSViewInvalidating
    {}

  }

  /// Stand-in for AppKit's `NSView.Invalidations`: the built-in invalidations.
  public enum Invalidations {
    /// Stand-in for `NSView.Invalidations.Layout`: the layout of the subviews.
    public struct Layout: NSViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: NSView) {}
    }

    /// Stand-in for `NSView.Invalidations.Display`: the drawn content.
    public struct Display: NSViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: NSView) {}
    }

    /// Stand-in for `NSView.Invalidations.Constraints`: the constraints.
    public struct Constraints: NSViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: NSView) {}
    }

    /// Stand-in for `NSView.Invalidations.IntrinsicContentSize`: the intrinsic content size.
    public struct IntrinsicContentSize: NSViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: NSView) {}
    }

    /// Stand-in for `NSView.Invalidations.RestorableState`: the restorable state.
    public struct RestorableState: NSViewInvalidating {
      /// Creates the invalidation.
      public init() {}
      /// Invalidates `view`.
      public func invalidate(view: NSView) {}
    }

    /// Stand-in for `NSView.Invalidations.Tuple`: two invalidations performed together.
    public struct Tuple<Invalidation1: NSViewInvalidating, Invalidation2: NSViewInvalidating>:
      NSViewInvalidating
    {
      /// Combines two invalidations.
      public init(_ invalidation1: Invalidation1, _ invalidation2: Invalidation2) {}
      /// Invalidates `view` both ways.
      public func invalidate(view: NSView) {}
    }
  }
}

@available(macOS 12.0, *)
extension NSViewInvalidating where Self == NSView.Invalidations.Layout {
  /// Stand-in for `NSViewInvalidating.layout`.
  public static var layout: NSView.Invalidations.Layout { .init() }
}

@available(macOS 12.0, *)
extension NSViewInvalidating where Self == NSView.Invalidations.Display {
  /// Stand-in for `NSViewInvalidating.display`.
  public static var display: NSView.Invalidations.Display { .init() }
}

@available(macOS 12.0, *)
extension NSViewInvalidating where Self == NSView.Invalidations.Constraints {
  /// Stand-in for `NSViewInvalidating.constraints`.
  public static var constraints: NSView.Invalidations.Constraints { .init() }
}

@available(macOS 12.0, *)
extension NSViewInvalidating where Self == NSView.Invalidations.IntrinsicContentSize {
  /// Stand-in for `NSViewInvalidating.intrinsicContentSize`.
  public static var intrinsicContentSize: NSView.Invalidations.IntrinsicContentSize { .init() }
}

@available(macOS 12.0, *)
extension NSViewInvalidating where Self == NSView.Invalidations.RestorableState {
  /// Stand-in for `NSViewInvalidating.restorableState`.
  public static var restorableState: NSView.Invalidations.RestorableState { .init() }
}
