extension Future {
    /// Returns a future that replaces this future's error with the future that `transform`
    /// makes from it.
    ///
    /// Falls back on another asynchronous source (a mirror, a cache). On success `transform` never
    /// runs; otherwise it runs on the resolving thread and the new future resolves as the one it
    /// returns, keeping this future's kind. `transform` sees a cancellation as `CancellationError`.
    ///
    /// SwiftNIO's `flatMapError`; ``recover(fileID:line:_:)-7j3ho`` gives a value instead.
    ///
    /// ```swift
    /// let page = primary.flatMapError { _ in BackgroundFuture { try fetch(from: mirror) } }
    /// let settings = remote.flatMapError { _ in LazyFuture { Settings.defaults } }  // Future<Settings, Never>
    /// ```
    /// - Parameters:
    ///   - transform: Makes the fallback future from the error, or throws a new error.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future of this future's value, or of the fallback's result.
    @_disfavoredOverload
    public func flatMapError<NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Failure) throws(NewFailure) -> Future<Value, NewFailure>
    ) -> Future<Value, NewFailure> {
        _derive(fileID: fileID, line: line, atOnce: .linked) { parent, child in
            switch parent._result {
            case .success(let value):
                child.resolve(with: .success(value))
            case .failure(let error):
                let fallback: Future<Value, NewFailure>
                do throws(NewFailure) {
                    fallback = try transform(error)
                } catch {
                    child.resolve(with: .failure(error))
                    return
                }
                child.wait(on: fallback)
                fallback._onResolution { fallback in
                    child.resolve(with: fallback._result, sourceCancelled: fallback._isCancelled)
                }
            }
        }
    }

    /// Returns a future that replaces this future's error with the future that `transform`
    /// makes from it; `transform` does not throw.
    ///
    /// The new future's error type is the fallback's: one that cannot fail gives one that cannot.
    ///
    /// ```swift
    /// let avatar = download.flatMapError { _ in cache.avatarFuture(for: user) }
    /// ```
    /// - Parameters:
    ///   - transform: Makes the fallback future from the error.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future of this future's value, or of the fallback's result.
    public func flatMapError<NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Failure) -> Future<Value, NewFailure>
    ) -> Future<Value, NewFailure> {
        flatMapError(fileID: fileID, line: line) { (error) throws(NewFailure) in transform(error) }
    }
}
