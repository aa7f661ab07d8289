import Foundation

/// Where the demo looks when it is given no argument: this package's own `Sources` directory.
enum DefaultDirectory {
    /// `./Sources` if the current directory has one (as under `swift run`), otherwise the
    /// `Sources` directory this file was compiled from, so the demo works when run from elsewhere.
    static func sources(filePath: StaticString = #filePath) -> String {
        let fileManager = FileManager.default
        let local = (fileManager.currentDirectoryPath as NSString).appendingPathComponent("Sources")
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: local, isDirectory: &isDirectory), isDirectory.boolValue {
            return local
        }
        // <package>/Sources/futures-demo/DefaultDirectory.swift → <package>/Sources
        let thisFile = "\(filePath)" as NSString
        return (thisFile.deletingLastPathComponent as NSString).deletingLastPathComponent
    }
}
