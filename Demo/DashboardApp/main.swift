import InvalidatingDashboard

// invalidating-dashboard: a terminal dashboard of this machine, drawn by views bound to a view
// model. The views, view models and /proc parsing live in InvalidatingDashboard; this is the
// command line and the terminal.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

let status = MainActor.assumeIsolated {
  DashboardCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
}
exit(status)
