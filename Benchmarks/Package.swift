// swift-tools-version: 6.1
// The benchmark suite of Futures: its own package, so that the library keeps `dependencies: []`.
// Run it with `Benchmarks/run` (see BENCHMARKS.md).
import PackageDescription

import class Foundation.ProcessInfo

// The library under test: this repository, or another checkout of it when
// FUTURES_LIBRARY_PATH is set (to measure a branch or a patched copy with the same build).
let libraryPath = ProcessInfo.processInfo.environment["FUTURES_LIBRARY_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? ".."

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The loops of the resolved-read rows (`ReadLoops`) start a 64-byte line, wherever the library
// linked before them ends. A loop of 17 to 32 bytes whose head is aligned to 16 bytes (LLVM's
// default on x86) crosses a line in one place of four and then takes an extra cycle a turn: the
// `Future.value` row's loop (27 bytes) took 1.36 or 1.64 ns a read as changes to the library moved
// it, the stored property's (13 bytes) 1.36 ns always (BENCHMARKS.md, twenty-seventh round). Only
// that target: aligning every function of the benchmark target moved the toolbox rows' code too,
// and the bounded fan-out took 7% longer. (LLVM's option that aligns innermost loops changed
// nothing in these objects, though it does in a small program.)
#if arch(x86_64)
    let functionAlignment: [SwiftSetting] = [.unsafeFlags(["-Xllvm", "-align-all-functions=6"])]
#else
    let functionAlignment: [SwiftSetting] = []
#endif

let package = Package(
    name: "FuturesBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Futures", path: libraryPath),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // The peers we compare against, in their own module so that, like Futures, they are
        // called across a module boundary and the optimizer cannot fold them into the loop.
        .target(
            name: "BenchmarkPeers",
            swiftSettings: strictSettings
        ),
        // Row group 1's read loops, each in a function that starts a 64-byte line (above).
        .target(
            name: "ReadLoops",
            dependencies: [.product(name: "Futures", package: "Futures"), "BenchmarkPeers"],
            swiftSettings: strictSettings + functionAlignment
        ),
        .executableTarget(
            name: "FuturesBenchmarks",
            dependencies: [
                .product(name: "Futures", package: "Futures"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "BenchmarkPeers",
                "ReadLoops",
            ],
            path: "Benchmarks/FuturesBenchmarks",
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Heap bytes per pending future, measured without the benchmark's malloc interposer
        // (which prefixes every block with a 16-byte header): glibc's mallinfo2, or jemalloc's
        // stats when run with jemalloc preloaded.
        .target(name: "CMallocStats"),
        .executableTarget(
            name: "futures-memory",
            dependencies: [
                "CMallocStats",
                .product(name: "Futures", package: "Futures"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "BenchmarkPeers",
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
