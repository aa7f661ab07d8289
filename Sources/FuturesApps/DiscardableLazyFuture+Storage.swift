public import Foundation
import Futures

extension DiscardableLazyFuture where Value: Codable {
    /// A discardable lazy future that keeps a copy of its value on disk: after a discard, the
    /// next read decodes the copy instead of running the work again (MAFuture's auto-archiving
    /// memory-aware future).
    ///
    /// Each computed value is encoded as JSON into a file of its own in `directory`, named by a
    /// new UUID, before readers get it; the file is removed when the future is freed, and by
    /// ``invalidate()``. If the value cannot be encoded or written, or the copy cannot be read
    /// back, the work runs again instead: the copy saves time, it is never needed for a value.
    ///
    /// ```swift
    /// let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
    /// let index = DiscardableLazyFuture(storingIn: caches) { buildIndex(of: corpus) }
    /// index.discard()          // frees the memory; the copy stays on disk
    /// _ = index.value          // decoded from disk, not built again
    /// ```
    /// - Parameters:
    ///   - directory: An existing, writable directory for the copy, such as a caches or
    ///     temporary directory.
    ///   - fileID: Leave the default: it names the calling line in diagnostics.
    ///   - line: Leave the default.
    ///   - work: Computes the value, once per computation; it does not run when the copy on
    ///     disk can be read back.
    public convenience init(
        storingIn directory: URL,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        let file = directory.appendingPathComponent("DiscardableLazyFuture-\(UUID().uuidString).json")
        self.init(storage: DiscardableStorage(file: file), relief: .shared, fileID: fileID, line: line, work: work)
    }

    /// The file that holds the copy of the value on disk, for a future made with
    /// ``init(storingIn:fileID:line:_:)``; `nil` for one kept only in memory. The file exists
    /// only while a copy is stored.
    ///
    /// ```swift
    /// print(index.storageFile?.path ?? "memory only")
    /// ```
    public var storageFile: URL? { storage?.file }
}

/// Where a ``DiscardableLazyFuture`` keeps a copy of its value, and how it writes and reads it.
struct DiscardableStorage<Value: Sendable>: Sendable {
    let file: URL
    /// Writes the value; `false` if it could not be encoded or written.
    let save: @Sendable (Value) -> Bool
    /// Reads the value back; `nil` if there is no readable copy.
    let load: @Sendable () -> Value?

    /// Removes the copy, if there is one.
    func remove() {
        try? FileManager.default.removeItem(at: file)
    }
}

extension DiscardableStorage where Value: Codable {
    /// JSON in `file`, written atomically.
    init(file: URL) {
        self.file = file
        save = { value in
            do {
                try JSONEncoder().encode(value).write(to: file, options: .atomic)
                return true
            } catch {
                return false
            }
        }
        load = {
            guard let data = try? Data(contentsOf: file) else { return nil }
            return try? JSONDecoder().decode(Value.self, from: data)
        }
    }
}
