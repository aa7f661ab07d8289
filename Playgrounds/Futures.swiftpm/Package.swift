// swift-tools-version: 6.0

// An App Playground: the Swift Playgrounds app (iPad and Mac) and Xcode open this folder as an
// app. Everything it builds is inside this folder: the chapters, the SwiftUI shell, and a copy
// of the library's sources in Library/, because the app resolves no local path dependency. The
// copy is not committed: `scripts/sync-app-playground`, run from the repository, makes it from
// Sources/ before the playground is opened or run. Elsewhere, as on Linux, the same target is a
// plain executable: a text runner that prints each chapter's facts.

import PackageDescription

#if canImport(AppleProductTypes)
    import AppleProductTypes

    let package = Package(
        name: "Futures",
        platforms: [
            .iOS("18.0")
        ],
        products: [
            .iOSApplication(
                name: "Futures",
                targets: ["AppModule"],
                bundleIdentifier: "org.futures.playground",
                teamIdentifier: "",
                displayVersion: "1.0",
                bundleVersion: "1",
                appIcon: .placeholder(icon: .cloud),
                accentColor: .presetColor(.blue),
                supportedDeviceFamilies: [
                    .pad,
                    .phone,
                ],
                supportedInterfaceOrientations: [
                    .portrait,
                    .landscapeRight,
                    .landscapeLeft,
                    .portraitUpsideDown(.when(deviceFamilies: [.pad])),
                ]
            )
        ],
        targets: [
            .executableTarget(
                name: "AppModule",
                path: "."
            )
        ],
        swiftLanguageModes: [.v6]
    )
#else
    let package = Package(
        name: "Futures",
        platforms: [
            .macOS(.v15)
        ],
        products: [
            .executable(name: "Futures", targets: ["AppModule"])
        ],
        targets: [
            .executableTarget(
                name: "AppModule",
                path: "."
            )
        ],
        swiftLanguageModes: [.v6]
    )
#endif
