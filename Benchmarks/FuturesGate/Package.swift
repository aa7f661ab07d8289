// swift-tools-version: 6.1
// The gate: instructions, allocations and bytes per operation for the rows that guard the
// library's speed, beside SwiftNIO's matching rows, counted by `scripts/gate` under valgrind's
// callgrind. A package of its own (the library keeps `dependencies: []`, and the timed benchmark
// package's heavier dependencies stay out of CI).
import PackageDescription

let package = Package(
    name: "FuturesGate",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Futures", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // Counts every allocation the process makes, whichever library makes it: the program
        // defines malloc and its siblings, so the dynamic linker binds every library's calls to
        // them, and they forward to glibc.
        .target(name: "CGateMalloc"),
        .executableTarget(
            name: "gate-rows",
            dependencies: [
                "CGateMalloc",
                .product(name: "Futures", package: "Futures"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
