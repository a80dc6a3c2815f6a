/// The command line of `invalidating-dashboard`.
public struct DashboardOptions: Hashable, Sendable {
  /// How many frames to draw before exiting, as `--frames` gave it: `nil` for the mode's
  /// default, ``printedFrames`` printed frames, or a live screen until `q` is pressed.
  public var frames: Int?
  /// How many frames the default mode prints when `--frames` is not given.
  public static let printedFrames = 5
  /// Seconds between readings, within ``intervals``.
  public var interval = 1.0
  /// The intervals `--interval` accepts, in seconds: no wait at all, up to an hour. Beyond it
  /// a dashboard shows nothing useful, and the sleep call and the live mode's timer take whole
  /// numbers that an unbounded value (`inf`, `1e300`) does not fit in.
  public static let intervals: ClosedRange<Double> = 0...3600
  /// Whether to run full-screen, at the terminal's size, until `q` is pressed (or for
  /// ``frames`` frames, when given).
  public var live = false
  /// The directory to read instead of `/proc`: a recorded copy, for example.
  public var procPath = "/proc"
  /// Whether to use simulated readings even where `/proc` is readable.
  public var simulated = false
  /// Whether to print the usage and exit.
  public var help = false

  /// The options with every default.
  public init() {}

  /// The text `--help` prints.
  public static let usage = """
    usage: invalidating-dashboard [--frames N] [--interval SECONDS] [--live] [--proc PATH]
                                  [--simulated] [--trace | --dot] [--help]

    A terminal dashboard of this machine (CPU per core, memory, load, busiest processes),
    drawn by views that read a view model: only the panels whose inputs changed are redrawn.
    On exit it prints what the engine did: writes, invalidations and renders.

      --frames N          frames to draw before exiting (default 5; --live: until q)
      --interval SECONDS  time between readings, 0 to 3600 (default 1)
      --live              full screen at the terminal's size, redrawing until q is pressed
      --proc PATH         read PATH instead of /proc (a recorded copy of it)
      --simulated         use made-up readings
      -h, --help          print this and exit
    """

  /// Why a command line was refused.
  public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, in a sentence.
    public var description: String

    /// Describes what was wrong.
    ///
    /// - Parameter description: What was wrong, in a sentence.
    public init(description: String) {
      self.description = description
    }
  }

  /// Parses the arguments that follow the program's name.
  ///
  /// - Parameter arguments: The arguments, such as `["--frames", "3"]`.
  /// - Throws: ``UsageError`` for an unknown option or a bad value.
  public init(parsing arguments: [String]) throws(UsageError) {
    var remaining = arguments[...]
    func value(of option: String) throws(UsageError) -> String {
      guard let value = remaining.popFirst() else {
        throw UsageError(description: "\(option) needs a value")
      }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--frames":
        guard let frames = Int(try value(of: argument)), frames > 0 else {
          throw UsageError(description: "--frames needs a positive whole number")
        }
        self.frames = frames
      case "--interval":
        // `Double` also parses "inf" and "nan"; the range refuses both.
        guard let interval = Double(try value(of: argument)), Self.intervals.contains(interval)
        else {
          throw UsageError(description: "--interval needs a number of seconds from 0 to 3600")
        }
        self.interval = interval
      case "--live": live = true
      case "--proc": procPath = try value(of: argument)
      case "--simulated": simulated = true
      case "--help", "-h": help = true
      default: throw UsageError(description: "unknown option \(argument)")
      }
    }
  }
}
