import Foundation

/// The regular files under a directory, found by walking it recursively.
///
/// Symbolic links are not followed (so a link cycle cannot loop and no file counts twice);
/// they, FIFOs, sockets and devices are counted as skipped, not read.
struct DirectoryListing {
    /// The directory as given, standardized.
    var root: String
    /// Paths of regular files relative to `root`, sorted.
    var files: [String]
    /// Entries that are neither regular files nor directories.
    var skippedCount: Int

    /// Lists `root`, which must be an existing directory.
    ///
    /// - Throws: ``DemoError/noSuchDirectory(_:)``, ``DemoError/notADirectory(_:)``,
    ///   ``DemoError/unreadableDirectory(_:reason:)``.
    static func scan(_ root: String) throws(DemoError) -> DirectoryListing {
        let fileManager = FileManager.default
        let root = (root as NSString).standardizingPath
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw .noSuchDirectory(root)
        }
        guard isDirectory.boolValue else { throw .notADirectory(root) }
        var listing = DirectoryListing(root: root, files: [], skippedCount: 0)
        try listing.walk(relativePath: "", fileManager: fileManager)
        listing.files.sort()
        return listing
    }

    private mutating func walk(relativePath: String, fileManager: FileManager) throws(DemoError) {
        let directory = relativePath.isEmpty ? root : (root as NSString).appendingPathComponent(relativePath)
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadableDirectory(directory, reason: FileSummary.reason(for: error))
        }
        for name in names.sorted() {
            let child = relativePath.isEmpty ? name : (relativePath as NSString).appendingPathComponent(name)
            let childPath = (root as NSString).appendingPathComponent(child)
            // attributesOfItem does not follow a symbolic link: it describes the link itself.
            let type: FileAttributeType?
            do {
                type = try fileManager.attributesOfItem(atPath: childPath)[.type] as? FileAttributeType
            } catch {
                throw .unreadableDirectory(directory, reason: FileSummary.reason(for: error))
            }
            switch type {
            case .typeRegular?: files.append(child)
            case .typeDirectory?: try walk(relativePath: child, fileManager: fileManager)
            default: skippedCount += 1
            }
        }
    }
}
