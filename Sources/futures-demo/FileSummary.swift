import Foundation

/// What the demo computes for one file: its size, its line count and its checksum.
struct FileSummary: Sendable, Equatable {
    /// The path relative to the scanned directory.
    var path: String
    var byteCount: Int
    /// The number of newline bytes, plus one if the file does not end with a newline.
    var lineCount: Int
    /// FNV-1a 64 of the contents, chained over `rounds` rounds.
    var checksum: UInt64

    /// Reads the file at `root/path` and summarizes it, hashing its contents `rounds` times.
    ///
    /// - Throws: ``DemoError/unreadableFile(_:reason:)`` if the file cannot be opened or read.
    static func compute(root: String, path: String, rounds: Int) throws(DemoError) -> FileSummary {
        let fullPath = (root as NSString).appendingPathComponent(path)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: fullPath))
        } catch {
            throw .unreadableFile(fullPath, reason: Self.reason(for: error))
        }
        return data.withUnsafeBytes { bytes in
            FileSummary(
                path: path,
                byteCount: bytes.count,
                lineCount: Self.lineCount(bytes),
                checksum: FNV1a64.chainedHash(bytes, rounds: rounds))
        }
    }

    static func lineCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        var newlines = 0
        for byte in bytes where byte == UInt8(ascii: "\n") {
            newlines += 1
        }
        if let last = bytes.last, last != UInt8(ascii: "\n") { newlines += 1 }
        return newlines
    }

    /// The POSIX reason behind a Foundation file error ("Permission denied"), without
    /// Foundation's longer wrapper text; Foundation's own description if there is none.
    static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        // The underlying error is a Swift `POSIXError` here, not an `NSError`: cast to `any Error`.
        let posix = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError } ?? nsError
        guard posix.domain == NSPOSIXErrorDomain, let message = strerror(Int32(posix.code)) else {
            return nsError.localizedDescription
        }
        return String(cString: message)
    }
}
