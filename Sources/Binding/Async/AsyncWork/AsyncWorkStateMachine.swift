/// The four ways to run async work per element (RxSwift's `flatMapLatest`, `flatMap`,
/// `concatMap`, `flatMapFirst`; ReactiveSwift's `.latest`, `.merge`, `.concat`, `.throttle`).
@usableFromInline
enum _AsyncStrategy: Sendable {
  /// A new element cancels the work in flight.
  case latest
  /// Every element's work runs, concurrently.
  case merge
  /// Elements wait for the work in flight, in order.
  case concat
  /// Elements that arrive while work is in flight are dropped.
  case first

  /// The name of the strategy's operator, for traces.
  @inlinable
  var operatorName: StaticString {
    switch self {
    case .latest: "flatMapLatest"
    case .merge: "flatMap"
    case .concat: "concatMap"
    case .first: "flatMapFirst"
    }
  }
}

/// The state of async work per element, as a value: what is in flight, what waits, whether
/// the input has ended. Each transition returns what the storage must do (start, cancel,
/// deliver), which it does outside its lock.
@usableFromInline
struct _AsyncWorkStateMachine<Input> {
  @usableFromInline let strategy: _AsyncStrategy
  /// The identifier of the next piece of work started.
  @usableFromInline var nextID: UInt64 = 0
  /// The work in flight, oldest first: at most one, except for `.merge`.
  @usableFromInline var running: [UInt64] = []
  /// For `.concat`: the elements waiting for the work in flight to finish, oldest first.
  @usableFromInline var waiting: [Input] = []
  /// Whether the input has ended: once the work left is done, the output ends too.
  @usableFromInline var inputEnded = false
  /// Whether the output has been ended (it ends once).
  @usableFromInline var outputEnded = false

  @inlinable
  init(strategy: _AsyncStrategy) {
    self.strategy = strategy
  }

  /// Work to start for an element, with its identifier.
  @usableFromInline
  struct Start {
    @usableFromInline let id: UInt64
    @usableFromInline let input: Input

    @inlinable
    init(id: UInt64, input: Input) {
      self.id = id
      self.input = input
    }
  }

  /// An element arrived: the work to start, if any, and the work to cancel, if any.
  @inlinable
  mutating func receive(_ input: Input) -> (start: Start?, cancel: UInt64?) {
    switch strategy {
    case .latest:
      let superseded = running.first
      return (start(input), superseded)
    case .merge:
      return (start(input, alongside: true), nil)
    case .concat:
      guard running.isEmpty else {
        waiting.append(input)
        return (nil, nil)
      }
      return (start(input), nil)
    case .first:
      guard running.isEmpty else { return (nil, nil) }
      return (start(input), nil)
    }
  }

  /// The work `id` finished: whether its result is still wanted (it is in flight: not
  /// superseded, not cancelled), and the work to start next (`.concat`).
  @inlinable
  mutating func finish(_ id: UInt64) -> (isWanted: Bool, next: Start?) {
    guard let index = running.firstIndex(of: id) else { return (false, nil) }
    running.remove(at: index)
    guard !waiting.isEmpty else { return (true, nil) }
    return (true, start(waiting.removeFirst()))
  }

  /// Whether the work `id` is in flight.
  @inlinable
  func isInFlight(_ id: UInt64) -> Bool { running.contains(id) }

  /// Whether nothing is in flight or waiting.
  @inlinable
  var isIdle: Bool { running.isEmpty && waiting.isEmpty }

  /// The input ended.
  @inlinable
  mutating func endInput() {
    inputEnded = true
  }

  /// Whether the output must end now: the input has ended and the work left is done. Returns
  /// `true` once.
  @inlinable
  mutating func takeOutputEnd() -> Bool {
    guard inputEnded, isIdle, !outputEnded else { return false }
    outputEnded = true
    return true
  }

  @inlinable
  mutating func start(_ input: Input, alongside: Bool = false) -> Start {
    nextID &+= 1
    if alongside { running.append(nextID) } else { running = [nextID] }
    return Start(id: nextID, input: input)
  }
}
