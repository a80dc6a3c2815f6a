#if canImport(Observation)
  import Observation
#endif
#if canImport(InvalidatingThreadLocal)
  import InvalidatingThreadLocal
#endif

/// Shows reads of a `Property`'s `value` to Apple's Observation (rule 14 of the contract): a
/// read inside Observation's tracking (`withObservationTracking`, SwiftUI's `body`, UIKit's and
/// AppKit's tracked methods, `Observations`) registers with the property's own
/// `ObservationRegistrar`, and each delivered change of the property calls the registrar's
/// `willSet` and `didSet`, once per delivery.
///
/// Observation says nothing of whether its tracking is open, except to the key paths it
/// records: an access inside the tracking hashes the accessed key path into the tracking's
/// list, and an access outside returns after one thread-local test. So a read asks a probe: an
/// access to a key path whose subscript argument notes, when hashed, that the tracking is open
/// (`ObservationProbe`). Outside the tracking that costs the access's own test; the property's
/// registrar, and the subscription that calls it, are made on the first read that finds the
/// tracking open: nothing is kept for a property Observation never read.
///
/// Reads by the engine's own tracked runs (computed properties, view passes) are dependencies
/// of those runs, not of Observation, and skip the probe; so do reads inside the engine's own
/// Observation tracking (`ObservableReads.track`, which sets `hidesReadsFromObservation`).
@usableFromInline
package enum ObservationVisibility {
  /// Whether Observation's tracking is open on this thread, for a read outside the engine's
  /// tracked runs: `context` is the thread's context, if it has one.
  @usableFromInline @inline(never)
  package static func isTracking(_ context: Unmanaged<ThreadContext>?) -> Bool {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        if let context {
          let hidden = context._withUnsafeGuaranteedRef { context in
            // Observation also hashes key paths when it installs and merges lists, outside any
            // probe: only a hit during this access counts.
            context.observationProbeHit = false
            return context.hidesReadsFromObservation
          }
          if hidden { return false }
        }
        ObservationProbe.registrar.access(ObservationProbe.subject, keyPath: ObservationProbe.keyPath)
        // A hit made the context if the thread had none.
        guard let context = ThreadContext.existing else { return !ObservationProbe.works }
        let hit = context._withUnsafeGuaranteedRef { context in
          defer { context.observationProbeHit = false }
          return context.observationProbeHit
        }
        return hit || !ObservationProbe.works
      }
    #endif
    return false
  }
}

extension ObservationVisibility {
  /// Registers a read, outside the engine's tracked runs, with the registrar of a property that
  /// has one (`observation` is its `Property.observationWord`): outside Observation's tracking
  /// the access returns after its own thread-local test.
  @usableFromInline @inline(never)
  static func access(_ observation: UInt, _ context: Unmanaged<ThreadContext>?) {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        if let context, context._withUnsafeGuaranteedRef({ $0.hidesReadsFromObservation }) {
          return
        }
        PropertyObservation.borrowing(observation) { $0.access() }
      }
    #endif
  }

  /// Releases a property's `observationWord`, from its `deinit`.
  @usableFromInline
  static func release(_ observation: UInt) {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        Unmanaged<PropertyObservation>.fromOpaque(UnsafeRawPointer(bitPattern: observation)!)
          .release()
      }
    #endif
  }
}

extension Property {
  /// `observationWord`, read with acquire: 0, or the address of a `PropertyObservation` that
  /// was fully made before the address was stored.
  @inlinable
  var observationAddress: UInt {
    #if canImport(InvalidatingThreadLocal)
      UInt(invalidating_word_load_acquire(&observationWord))
    #else
      node.withRootLocked { root in
        defer { root.lock.unlock() }
        return observationWord
      }
    #endif
  }

  /// Whether an Observation tracking has read this property: whether it holds a registrar and
  /// a subscription for Observation. For tests.
  package final var hasObservationRegistrar: Bool { observationAddress != 0 }

  /// Registers this read with the property's registrar, made (with the subscription that calls
  /// it) on the first read Observation tracks. Called only while Observation's tracking is open.
  @usableFromInline
  package final func showReadToObservation() {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        let (observation, isNew) = node.withRootLocked { root in
          defer { root.lock.unlock() }
          if observationWord != 0 { return (observationWord, false) }
          let made = UInt(bitPattern: Unmanaged.passRetained(PropertyObservation()).toOpaque())
          #if canImport(InvalidatingThreadLocal)
            invalidating_word_store_release(&observationWord, UInt(made))
          #else
            observationWord = made
          #endif
          return (made, true)
        }
        PropertyObservation.borrowing(observation) { made in
          if isNew { made.follow(node) }
          made.access()
        }
      }
    #endif
  }
}

#if canImport(Observation)
  /// The registrar of one `Property`, and the subscription that calls its `willSet` and `didSet`
  /// once per delivered change of the property's node.
  ///
  /// The property owns it, and it owns the subscription: when the property is released, the
  /// subscription ends (a computed property no one else observes is suspended again). The
  /// subscription's sink holds it weakly, so the node does not keep it alive.
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  final class PropertyObservation: Observable, @unchecked Sendable {
    // Safe: `registrar` is immutable and Sendable; `subscription` is written once, by the
    // thread that made this object, before that thread lets go of it, and read only by
    // `deinit`.
    let registrar = ObservationRegistrar()
    private var subscription: SubscriptionToken?

    /// The one member Observation tracks: "the property's value changed".
    var changes: Int { 0 }

    /// Runs `body` with the object at `address` (a `Property.observationWord`), borrowed: the
    /// property that holds it outlives the call.
    static func borrowing(_ address: UInt, _ body: (PropertyObservation) -> Void) {
      Unmanaged<PropertyObservation>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
        ._withUnsafeGuaranteedRef(body)
    }

    /// Registers a read of the property with Observation's tracking, if one is open.
    func access() {
      registrar.access(self, keyPath: \.changes)
    }

    /// Calls `willSet` then `didSet` on every delivered change of `node` from now on: a
    /// subscription that does not take the current value (the read that made this object
    /// returns it).
    func follow<Value>(_ node: ValueNode<Value>) {
      subscription = node.subscribe(emitsCurrentValue: false) { [weak self] _ in
        guard let self else { return }
        self.registrar.willSet(self, keyPath: \.changes)
        self.registrar.didSet(self, keyPath: \.changes)
      }
    }
  }

  /// What `ObservationVisibility.isTracking` accesses: a key path with a subscript argument
  /// whose hashing, which only Observation's tracking does, notes the hit on the thread.
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  final class ObservationProbe: Observable, Sendable {
    /// Notes, when hashed, that Observation's tracking recorded the probe's access.
    struct Hit: Hashable, Sendable {
      static func == (_: Hit, _: Hit) -> Bool { true }
      func hash(into hasher: inout Hasher) {
        ThreadContext.current.observationProbeHit = true
      }
    }

    subscript(hit _: Hit) -> Int { 0 }

    static let subject = ObservationProbe()
    static let registrar = ObservationRegistrar()
    static let keyPath = \ObservationProbe.[hit: Hit()]

    /// Whether an access inside Observation's tracking hashes the probe's key path, as
    /// Observation does today (its list of accessed key paths is a `Set`); checked once. If a
    /// future Observation stops hashing it, every read outside the engine's tracked runs
    /// registers with its property's registrar instead: correct, and as costly as an
    /// `@Observable` property's read.
    static let works: Bool = {
      let context = ThreadContext.current
      context.observationProbeHit = false
      withObservationTracking {
        registrar.access(subject, keyPath: keyPath)
      } onChange: {}
      defer { context.observationProbeHit = false }
      return context.observationProbeHit
    }()
  }
#endif
