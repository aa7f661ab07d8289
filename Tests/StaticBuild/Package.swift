// swift-tools-version: 6.0
// A program that uses every kind of future, every combinator and every execution context, built
// by `scripts/check-static-build` with `swift build -c release --static-swift-stdlib` and run: it
// checks each of its results and exits non-zero on a wrong one. A package of its own, depending on
// the repository by path, so that the library's own build is unchanged.
import PackageDescription

let package = Package(
    name: "StaticBuild",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Futures", path: "../..")],
    targets: [
        .executableTarget(
            name: "static-build-check",
            dependencies: [.product(name: "Futures", package: "Futures")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
