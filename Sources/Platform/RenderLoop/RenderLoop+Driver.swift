import InvalidatingCore

extension RenderLoop {
  /// The periodic driver's task, with an identity so that a finished driver does not clear
  /// the record of a newer one.
  struct Driver {
    let id: UInt64
    let task: Task<Void, Never>
  }

  /// Whether a periodic driver started by ``start(framesPerSecond:frames:)`` is running.
  public var isRunning: Bool { driver != nil }

  /// Ticks at a frame rate on the main actor until the frame count is reached or the calling
  /// task is cancelled.
  ///
  /// The loop ticks at once, then sleeps one frame interval between ticks. The interval is
  /// slept, not scheduled against a clock, so a slow tick stretches its frame: this drives
  /// terminal and server renderers, not a display's vsync.
  ///
  /// - Parameters:
  ///   - framesPerSecond: The tick rate; greater than zero.
  ///   - frames: How many ticks to run, or `nil` to run until cancelled.
  public func run(framesPerSecond: Double, frames: Int? = nil) async {
    if !(framesPerSecond > 0 && framesPerSecond.isFinite) {
      Engine.misuse(
        """
        RenderLoop.run was given \(framesPerSecond) frames per second: the frame rate must be \
        a positive, finite number (60 is UIKit's usual rate).
        """)
    }
    let interval = UInt64((1_000_000_000 / framesPerSecond).rounded())
    var remaining = frames ?? .max
    while remaining > 0, !Task.isCancelled {
      tick()
      remaining -= 1
      guard remaining > 0 else { break }
      do {
        try await Task.sleep(nanoseconds: interval)
      } catch {
        return
      }
    }
  }

  /// Starts a periodic driver: a main-actor task that runs
  /// ``run(framesPerSecond:frames:)``. A driver already running is stopped first.
  ///
  /// The driver keeps the loop alive until it stops. Await the returned task to wait for a
  /// finite driver to finish, or for a stopped one to wind down.
  ///
  /// - Parameters:
  ///   - framesPerSecond: The tick rate; greater than zero.
  ///   - frames: How many ticks to run, or `nil` to run until ``stop()``.
  /// - Returns: The driver's task.
  @discardableResult
  public func start(framesPerSecond: Double = 60, frames: Int? = nil) -> Task<Void, Never> {
    stop()
    nextDriverID &+= 1
    let driverID = nextDriverID
    let task = Task { @MainActor in
      await self.run(framesPerSecond: framesPerSecond, frames: frames)
      if self.driver?.id == driverID { self.driver = nil }
    }
    driver = Driver(id: driverID, task: task)
    return task
  }

  /// Cancels the periodic driver, if one runs. No tick starts after `stop()` returns.
  public func stop() {
    driver?.task.cancel()
    driver = nil
  }
}
