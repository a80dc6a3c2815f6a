/// The four ways to run async work per element (RxSwift's `flatMapLatest`, `flatMap`,
/// `concatMap`, `flatMapFirst`; ReactiveSwift's `.latest`, `.merge`, `.concat`, `.throttle`).
enum _AsyncStrategy: Sendable {
  /// A new element cancels the work in flight.
  case latest
  /// Every element's work runs, concurrently.
  case merge
  /// Elements wait for the work in flight, in order.
  case concat
  /// Elements that arrive while work is in flight are dropped.
  case first
}

/// The state of async work per element, as a value: what is in flight, what waits, whether
/// the input has ended. Each transition returns what the storage must do (start, cancel,
/// deliver), which it does outside its lock.
struct _AsyncWorkStateMachine<Input> {
  let strategy: _AsyncStrategy
  /// The identifier of the next piece of work started.
  private var nextID: UInt64 = 0
  /// The work in flight, oldest first: at most one, except for `.merge`.
  private(set) var running: [UInt64] = []
  /// For `.concat`: the elements waiting for the work in flight to finish, oldest first.
  private var waiting: [Input] = []
  /// Whether the input has ended: once the work left is done, the output ends too.
  private(set) var inputEnded = false
  /// Whether the output has been ended (it ends once).
  private var outputEnded = false

  init(strategy: _AsyncStrategy) {
    self.strategy = strategy
  }

  /// Work to start for an element, with its identifier.
  struct Start {
    let id: UInt64
    let input: Input
  }

  /// An element arrived: the work to start, if any, and the work to cancel, if any.
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
  mutating func finish(_ id: UInt64) -> (isWanted: Bool, next: Start?) {
    guard let index = running.firstIndex(of: id) else { return (false, nil) }
    running.remove(at: index)
    guard !waiting.isEmpty else { return (true, nil) }
    return (true, start(waiting.removeFirst()))
  }

  /// Whether nothing is in flight or waiting.
  var isIdle: Bool { running.isEmpty && waiting.isEmpty }

  /// The input ended.
  mutating func endInput() {
    inputEnded = true
  }

  /// Whether the output must end now: the input has ended and the work left is done. Returns
  /// `true` once.
  mutating func takeOutputEnd() -> Bool {
    guard inputEnded, isIdle, !outputEnded else { return false }
    outputEnded = true
    return true
  }

  /// Cancels everything: the work in flight is returned, nothing waits any more.
  mutating func cancelAll() -> [UInt64] {
    waiting.removeAll()
    defer { running.removeAll() }
    return running
  }

  private mutating func start(_ input: Input, alongside: Bool = false) -> Start {
    nextID &+= 1
    if alongside { running.append(nextID) } else { running = [nextID] }
    return Start(id: nextID, input: input)
  }
}
