import InvalidatingDashboard

// invalidating-dashboard: a terminal dashboard of this machine, drawn by views that read a view
// model. The views, view models and /proc parsing live in InvalidatingDashboard; this is the
// command line and the terminal.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

// Top-level code that awaits runs on the main actor, whose executor is the main dispatch
// queue: the live mode's dispatch sources deliver there while the command awaits.
let status = await DashboardCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
