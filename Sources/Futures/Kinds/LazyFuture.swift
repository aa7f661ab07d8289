/// A future whose work runs on its first read, exactly once, on the reading thread.
///
/// Use it for work that may never be needed: if nobody reads the future, the work never runs.
///
/// ```swift
/// var thumbnails: [String: LazyFuture<Image, Never>] = [:]
/// for name in names { thumbnails[name] = LazyFuture { renderThumbnail(name) } }
/// show(thumbnails["cat"]!.value)   // only the cat's thumbnail is rendered
/// ```
///
/// Racing readers wait; the work never runs twice. A read that must not block (``Future/get()``,
/// ``Future/result(timeout:)``) starts it on the global context instead.
public final class LazyFuture<Value: Sendable, Failure: Error>: Future<Value, Failure>, @unchecked Sendable {
    // @unchecked: adds no stored state; the proof on `Future` covers it.

    /// Makes a future that runs `work` the first time it is read.
    ///
    /// ```swift
    /// let index = LazyFuture { buildIndex(of: corpus) }   // nothing runs yet
    /// ```
    /// - Parameters:
    ///   - work: The computation. A non-throwing closure gives `Failure == Never`; a
    ///     closure with `try` gives `any Error`; `() throws(MyError) -> T in` gives `MyError`.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    @inlinable
    public init(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        super.init(kind: .lazy, work: work, fileID: fileID, line: line)
    }
}
