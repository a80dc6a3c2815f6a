#if canImport(Observation)
  import Observation
#endif
#if canImport(InvalidatingPrimitives)
  import InvalidatingPrimitives
#endif

// How the engine shows reads to Observation: a read inside Observation's tracking registers
// with the property's own `ObservationRegistrar`, and each delivered change of the property
// calls the registrar's `willSet` and `didSet`, once per delivery.
//
// Observation says nothing of whether its tracking is open, except to the key paths it
// records: an access inside the tracking hashes the accessed key path into the tracking's
// list, and an access outside returns after one thread-local test. So a read asks a probe: an
// access to a key path whose subscript argument notes, when hashed, that the tracking is open
// (`ObservationProbe`). Outside the tracking that costs the access's own test; the property's
// registrar, and the subscription that calls it, are made on the first read that finds the
// tracking open: nothing is kept for a property Observation never read.
//
// Reads by the engine's own tracked runs (computed properties, view passes) are dependencies
// of those runs, not of Observation, and skip the probe; so do reads inside the engine's own
// Observation tracking (`ObservableReads.track`, which sets `hidesReadsFromObservation`).

/// Whether Apple's Observation sees reads of every `Property`.
///
/// While it is on, a read of a `Property`'s `value` (a relay, `asProperty()`, an operator's
/// result, a computed property, `@ReadWrite`, `$name` and the wrapped value of an
/// invalidating property) inside Observation's tracking (`withObservationTracking`, SwiftUI's
/// `body`, UIKit's and AppKit's tracked methods, `Observations`) is a dependency of that
/// tracking, told once of each delivered change (see rule 14 of the engine's contract).
///
/// Where SwiftUI exists (Apple platforms) it is on by default; elsewhere (Linux) it is off until
/// ``isEnabled`` is set, so that a service's reads cost what they did: asking Observation costs a
/// read about 120 instructions, as much as an `@Observable` property's read.
public enum ObservationVisibility {
  /// Whether reads of every `Property` are shown to Apple's Observation (rule 14 of the
  /// engine's contract): `true` by default on Apple platforms, `false` elsewhere.
  ///
  /// ```swift
  /// // A Linux program that follows properties with `Observations`:
  /// ObservationVisibility.isEnabled = true
  /// ```
  ///
  /// Set it once, before the reads that Observation should see (at launch). Turned off, reads
  /// cost what they cost without Observation, and Observation no longer learns of new reads;
  /// properties it had read keep telling it of their changes.
  public static var isEnabled: Bool {
    get { isOn }
    set {
      #if canImport(InvalidatingPrimitives)
        invalidating_word_store_release(&observationVisibilityWord, newValue ? 1 : 0)
      #else
        observationVisibilityWord = newValue ? 1 : 0
      #endif
    }
  }

  /// `isEnabled`, as the read path tests it: one load.
  @inlinable
  package static var isOn: Bool {
    #if canImport(InvalidatingPrimitives)
      invalidating_word_load_acquire(&observationVisibilityWord) != 0
    #else
      observationVisibilityWord != 0
    #endif
  }

  /// Whether Observation's tracking is open on this thread, for a read outside the engine's
  /// tracked runs, and reads are shown to it: `context` is the thread's context, if it has one.
  @usableFromInline @inline(never)
  package static func isTracking(_ context: Unmanaged<ThreadContext>?) -> Bool {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        guard isOn else { return false }
        let context = context ?? ThreadContext.withCurrent { Unmanaged.passUnretained($0) }
        return context._withUnsafeGuaranteedRef { isTracking(in: $0) }
      }
    #endif
    return false
  }

  #if canImport(Observation)
    /// `isTracking(_:)` with the thread's context.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @inline(__always)
    private static func isTracking(in context: ThreadContext) -> Bool {
      if context.observation.hidesReads { return false }
      // Observation also hashes key paths when it installs and merges lists, outside any
      // probe: only a hit during this access counts.
      context.observation.probeHit = false
      return ObservationProbe.withShared { probe in
        probe.registrar.access(probe, keyPath: probe.keyPath)
        return context.observation.probeHit || !probe.works
      }
    }
  #endif
}

extension ObservationVisibility {
  /// Registers a read, outside the engine's tracked runs, with the registrar of a property that
  /// has one (`observation` is its `Property.observationWord`): outside Observation's tracking
  /// the access returns after its own thread-local test.
  @usableFromInline @inline(never)
  static func access(_ observation: UInt, _ context: Unmanaged<ThreadContext>?) {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        if let context, context._withUnsafeGuaranteedRef({ $0.observation.hidesReads }) {
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
    #if canImport(InvalidatingPrimitives)
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
  ///
  /// The registrar follows the node before it is published: a read on another thread that
  /// finds it registers with a registrar that hears every change delivered from then on. (When
  /// it was published first and followed after, such a read could miss a change delivered in
  /// between.) Two first reads at once each make one; the one published first is kept, and the
  /// other is let go, outside the lock, ending its subscription.
  @usableFromInline
  package final func showReadToObservation() {
    #if canImport(Observation)
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        var observation = observationAddress
        if observation == 0 {
          let made = PropertyObservation()
          made.follow(node)
          let madeWord = UInt(bitPattern: Unmanaged.passRetained(made).toOpaque())
          observation = node.withRootLocked { root in
            defer { root.lock.unlock() }
            if observationWord != 0 { return observationWord }
            #if canImport(InvalidatingPrimitives)
              invalidating_word_store_release(&observationWord, madeWord)
            #else
              observationWord = madeWord
            #endif
            return madeWord
          }
          if observation != madeWord { Unmanaged.passUnretained(made).release() }
          #if DEBUG
            ObservationVisibility.runHookAfterPublishing(self)
          #endif
        }
        PropertyObservation.borrowing(observation) { $0.access() }
      }
    #endif
  }
}

#if DEBUG
  extension ObservationVisibility {
    /// Runs `body` once, on the thread that publishes `property`'s registrar, right after it
    /// is published and before that thread's own read registers: where a test puts another
    /// read and a write. Debug builds only.
    package static func afterPublishingRegistrar(
      of property: AnyObject, _ body: @escaping () -> Void
    ) {
      hookLock.lock()
      hooks[ObjectIdentifier(property)] = body
      hookLock.unlock()
    }

    static func runHookAfterPublishing(_ property: AnyObject) {
      hookLock.lock()
      let hook = hooks.removeValue(forKey: ObjectIdentifier(property))
      hookLock.unlock()
      hook?()
    }

    private static let hookLock = Lock()
    // Safe: only read and written while `hookLock` is held.
    nonisolated(unsafe) private static var hooks: [ObjectIdentifier: () -> Void] = [:]
  }
#endif

#if canImport(Observation)
  /// The registrar of one `Property`, and the subscription that calls its `willSet` and `didSet`
  /// once per delivered change of the property's node.
  ///
  /// The property owns it, and it owns the subscription: when the property is released, the
  /// subscription ends (a computed property no one else observes is suspended again). The
  /// subscription's sink holds only the registrar's storage, so the node keeps nothing else
  /// of it alive.
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  final class PropertyObservation: @unchecked Sendable {
    // Safe: `registrar` is immutable and Sendable; `subscription` is written once, by the
    // thread that made this object, before that thread lets go of it, and read only by
    // `deinit`.
    let registrar = ObservationRegistrar()
    private var subscription: SubscriptionToken?

    /// Runs `body` with the object at `address` (a `Property.observationWord`), borrowed: the
    /// property that holds it outlives the call.
    static func borrowing(_ address: UInt, _ body: (PropertyObservation) -> Void) {
      Unmanaged<PropertyObservation>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
        ._withUnsafeGuaranteedRef(body)
    }

    /// Registers a read of the property with Observation's tracking, if one is open.
    @inline(__always)
    func access() {
      ObservationProbe.withShared { registrar.access($0, keyPath: $0.changes) }
    }

    /// Calls `willSet` then `didSet` on every delivered change of `node` from now on: a
    /// subscription that does not take the current value (the read that made this object
    /// returns it).
    func follow<Value>(_ node: ValueNode<Value>) {
      // The sink holds the registrar (its storage), not this object: the node does not keep
      // the property's parts alive.
      subscription = node.subscribe(emitsCurrentValue: false) { [registrar] _ in
        ObservationProbe.withShared { probe in
          registrar.willSet(probe, keyPath: probe.changes)
          registrar.didSet(probe, keyPath: probe.changes)
        }
      }
    }
  }

  /// What `ObservationVisibility.isTracking` accesses: a key path with a subscript argument
  /// whose hashing, which only Observation's tracking does, notes the hit on the thread. Made
  /// once, and reached through a word (`observationProbeWord`) rather than a static property,
  /// whose every use would cost a `swift_once` test and a copy of the registrar.
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  final class ObservationProbe: Observable, @unchecked Sendable {
    // Safe: every field is immutable once the probe is published (`works` is set before).

    /// Notes, when hashed, that Observation's tracking recorded the probe's access.
    struct Hit: Hashable, Sendable {
      static func == (_: Hit, _: Hit) -> Bool { true }
      func hash(into hasher: inout Hasher) {
        ThreadContext.withCurrent { $0.observation.probeHit = true }
      }
    }

    subscript(hit _: Hit) -> Int { 0 }

    let registrar = ObservationRegistrar()
    let keyPath = \ObservationProbe.[hit: Hit()]
    /// The key path every property's registrar registers and announces, "the value changed"
    /// (Observation's registrars ignore the subject; the key path is what they match).
    let changes = \ObservationProbe.changed
    var changed: Int { 0 }
    /// Whether an access inside Observation's tracking hashes the probe's key path, as
    /// Observation does today (its list of accessed key paths is a `Set`); checked once, when
    /// the probe is made. If a future Observation stops hashing it, every read outside the
    /// engine's tracked runs registers with its property's registrar instead: correct, and as
    /// costly as an `@Observable` property's read.
    private(set) var works = false

    /// Runs `body` with the probe, made on first use.
    @inline(__always)
    static func withShared<Result>(_ body: (ObservationProbe) -> Result) -> Result {
      var word = loadWord()
      if _slowPath(word == 0) { word = made() }
      return Unmanaged<ObservationProbe>.fromOpaque(UnsafeRawPointer(bitPattern: word)!)
        ._withUnsafeGuaranteedRef(body)
    }

    @inline(__always)
    private static func loadWord() -> UInt {
      #if canImport(InvalidatingPrimitives)
        UInt(invalidating_word_load_acquire(&observationProbeWord))
      #else
        probeLock.lock()
        defer { probeLock.unlock() }
        return observationProbeWord
      #endif
    }

    /// Makes the probe, checks that it works, and publishes it; returns its word.
    @inline(never)
    private static func made() -> UInt {
      probeLock.lock()
      defer { probeLock.unlock() }
      if observationProbeWord != 0 { return observationProbeWord }
      let probe = ObservationProbe()
      let context = ThreadContext.current
      let hid = context.observation.hidesReads
      context.observation.hidesReads = false
      context.observation.probeHit = false
      withObservationTracking {
        probe.registrar.access(probe, keyPath: probe.keyPath)
      } onChange: {
      }
      probe.works = context.observation.probeHit
      context.observation.probeHit = false
      context.observation.hidesReads = hid
      let word = UInt(bitPattern: Unmanaged.passRetained(probe).toOpaque())
      #if canImport(InvalidatingPrimitives)
        invalidating_word_store_release(&observationProbeWord, UInt(word))
      #else
        observationProbeWord = word
      #endif
      return word
    }
  }

  /// The address of the one `ObservationProbe`, retained for the life of the process, or 0
  /// before it is made. Written once under `probeLock`; read with acquire.
  @exclusivity(unchecked) nonisolated(unsafe) private var observationProbeWord: UInt = 0
  private let probeLock = Lock()
#endif

/// `ObservationVisibility.isEnabled`, as a word (1 on, 0 off): statically initialized, so the
/// read path tests it with one load. Written with release, read with acquire.
#if canImport(SwiftUI)
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var observationVisibilityWord:
    UInt = 1
#else
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var observationVisibilityWord:
    UInt = 0
#endif
