// swift-tools-version: 6.0
import PackageDescription

// Layers, bottom to top (see ARCHITECTURE.md):
//   InvalidatingCore        the change-propagation engine, Property, batch, Invalidatable
//   InvalidatingBinding     relays, @ReadWrite, operators, bindings, bridges       (Core)
//   InvalidatingPlatform    HeadlessView, the render loop, UIKit/AppKit glue      (Core)
//   InvalidatingInvalidation @ViewInvalidating and the invalidators         (Core, Platform)
//   Invalidating            the one import: re-exports every layer and joins them
//   InvalidatingTesting     for test targets: TestClock, Recorder (Core, Binding; imported by none)
let package = Package(
  name: "Invalidating",
  platforms: [.iOS(.v13), .tvOS(.v13), .macOS(.v10_15)],
  products: [
    .library(name: "Invalidating", targets: ["Invalidating"]),
    .library(name: "InvalidatingCore", targets: ["InvalidatingCore"]),
    .library(name: "InvalidatingBinding", targets: ["InvalidatingBinding"]),
    .library(name: "InvalidatingPlatform", targets: ["InvalidatingPlatform"]),
    .library(name: "InvalidatingInvalidation", targets: ["InvalidatingInvalidation"]),
    .library(name: "InvalidatingTesting", targets: ["InvalidatingTesting"]),
    .executable(name: "invalidating-dashboard", targets: ["invalidating-dashboard"]),
    .executable(name: "invalidating-benchmarks", targets: ["invalidating-benchmarks"]),
  ],
  targets: [
    .target(
      name: "InvalidatingCore", dependencies: ["InvalidatingPrimitives"], path: "Sources/Core"),
    // The engine's primitives in C: the per-thread context as a C thread-local variable (see
    // ThreadContext.swift) and the engine's futex lock (see Lock.swift), neither on Apple
    // platforms; the count of domain splits (see Domain+Split.swift) and the debug guards' words.
    .target(name: "InvalidatingPrimitives", path: "Sources/Primitives"),
    .target(
      name: "InvalidatingBinding", dependencies: ["InvalidatingCore"], path: "Sources/Binding"),
    .target(
      name: "InvalidatingPlatform", dependencies: ["InvalidatingCore"], path: "Sources/Platform"),
    .target(
      name: "InvalidatingInvalidation",
      dependencies: ["InvalidatingCore", "InvalidatingPlatform"],
      path: "Sources/Invalidation"),
    .target(
      name: "Invalidating",
      dependencies: [
        "InvalidatingCore", "InvalidatingBinding", "InvalidatingPlatform",
        "InvalidatingInvalidation",
      ],
      path: "Sources/Invalidating"),
    // For test targets: a virtual clock whose advance waits for the work it causes, and a
    // recorder. It depends on the layers; none of them imports it.
    .target(
      name: "InvalidatingTesting", dependencies: ["InvalidatingCore", "InvalidatingBinding"],
      path: "Sources/Testing"),
    // The demo: a terminal dashboard of this machine. Its views and view models are a library
    // so that the end-to-end tests can drive them on recorded /proc samples.
    .target(
      name: "InvalidatingDashboard", dependencies: ["Invalidating"], path: "Demo/Dashboard"),
    .executableTarget(
      name: "invalidating-dashboard", dependencies: ["InvalidatingDashboard"],
      path: "Demo/DashboardApp"),
    .executableTarget(
      name: "invalidating-benchmarks", dependencies: ["Invalidating", "AllocationCounter"],
      path: "Benchmarks", exclude: ["AllocationCounter"]),
    // Counts the benchmark thread's allocations (glibc only); linked into the benchmarks alone.
    .target(name: "AllocationCounter", path: "Benchmarks/AllocationCounter"),
    // Makes one misuse by name; scripts/check-misuse-messages runs it from a release build to
    // check that every misuse stop names the mistake there too (rule 13).
    .executableTarget(
      name: "invalidating-misuse-probe", dependencies: ["Invalidating"], path: "Tests/MisuseProbe"),
    .target(
      name: "InvalidatingTestSupport", dependencies: ["InvalidatingCore"],
      path: "Tests/Support"),
    .testTarget(
      name: "CoreTests", dependencies: ["InvalidatingCore", "InvalidatingTestSupport"],
      path: "Tests/CoreTests"),
    .testTarget(
      name: "BindingTests",
      dependencies: ["InvalidatingBinding", "InvalidatingTesting", "InvalidatingTestSupport"],
      path: "Tests/BindingTests"),
    .testTarget(
      name: "TestingTests", dependencies: ["Invalidating", "InvalidatingTesting"],
      path: "Tests/TestingTests"),
    .testTarget(
      name: "PlatformTests",
      dependencies: ["InvalidatingPlatform", "InvalidatingTestSupport"],
      path: "Tests/PlatformTests"),
    .testTarget(
      name: "InvalidationTests",
      dependencies: ["InvalidatingInvalidation", "InvalidatingTestSupport"],
      path: "Tests/InvalidationTests"),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["Invalidating", "InvalidatingDashboard", "InvalidatingTestSupport"],
      path: "Tests/EndToEndTests",
      resources: [.copy("Samples")]),
    // Compiles the documented spelling of a derived value over ten or more inputs of different
    // types with a type-checking budget per expression: over it is a warning, so an error in
    // CI's warnings-as-errors build (the one-expression spelling fails to type-check at all).
    .testTarget(
      name: "TypeCheckingTests",
      dependencies: ["InvalidatingCore", "InvalidatingBinding", "InvalidatingTestSupport"],
      path: "Tests/TypeCheckingTests",
      swiftSettings: [
        .unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=1000"])
      ]),
    .testTarget(
      name: "ReliabilityTests",
      dependencies: [
        "InvalidatingCore", "InvalidatingBinding", "InvalidatingInvalidation",
        "InvalidatingPlatform", "Invalidating", "InvalidatingTestSupport",
      ],
      path: "Tests/ReliabilityTests"),
  ],
  swiftLanguageModes: [.v6]
)

// The DocC tutorials' code listings (Docs/Examples/<Tutorial>/Step<N>/): one executable per step
// that changes code, so `swift build` compiles every listing and each step runs as it stands.
// Tests/DocsTests runs each tutorial's last step and checks its output.
// The async tutorial's steps run their view model on InvalidatingTesting's test clock.
let tutorialSteps: [(tutorial: String, steps: Int, dependencies: [Target.Dependency])] = [
  ("ViewModel", 4, ["Invalidating"]), ("Views", 3, ["Invalidating"]),
  ("Automatic", 4, ["Invalidating"]), ("Async", 3, ["Invalidating", "InvalidatingTesting"]),
]
for (tutorial, steps, dependencies) in tutorialSteps {
  for step in 1...steps {
    package.targets.append(
      .executableTarget(
        name: "\(tutorial)TutorialStep\(step)", dependencies: dependencies,
        path: "Docs/Examples/\(tutorial)/Step\(step)"))
  }
}
// The example of the "Debugging invalidations" article: the README's example, traced.
package.targets.append(
  .executableTarget(
    name: "DebuggingExample", dependencies: ["Invalidating"], path: "Docs/Examples/Debugging"))
package.targets.append(.testTarget(name: "DocsTests", path: "Tests/DocsTests"))
