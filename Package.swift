// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Futures",
    // Atomic, which every future's state word is, needs these Apple OS versions; Linux has it always.
    // Only the Apple platforms CI type-checks (scripts/check-darwin) are named.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Futures", targets: ["Futures"]),
        .library(name: "FutureProxy", targets: ["FutureProxy"]),
        // The app-facing types (observation, progress, discardable lazy futures, FutureView): apart,
        // so that `import Futures` brings in no Observation or SwiftUI.
        .library(name: "FuturesApps", targets: ["FuturesApps"]),
        .executable(name: "futures-demo", targets: ["futures-demo"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "Futures", swiftSettings: strictSettings),
        .target(name: "FutureProxy", dependencies: ["Futures"], swiftSettings: strictSettings),
        .target(name: "FuturesApps", dependencies: ["Futures"], swiftSettings: strictSettings),
        .executableTarget(name: "futures-demo", dependencies: ["Futures", "FuturesApps"], swiftSettings: strictSettings),
        // Hooks run as the test process starts: the hang dump on SIGUSR1, the narrow pool (docs/testing.md).
        .target(name: "TestProcessHooks", path: "Tests/TestProcessHooks"),
        // What the test targets share: gates, signals, counters, racing threads, weak boxes, the
        // sanitizer-stretched hang limits (docs/testing.md). `package` declarations, no `@testable`
        // import: a plain `swift build` and a release build compile it too.
        .target(name: "FuturesTestSupport", path: "Tests/FuturesTestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "FuturesTests", dependencies: ["Futures", "FuturesTestSupport", "TestProcessHooks"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "FutureProxyTests", dependencies: ["FutureProxy", "FuturesTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "FuturesAppsTests", dependencies: ["FuturesApps", "FuturesTestSupport"],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
