// Changing a future's error type without changing its outcome (Combine's names).

extension Future where Failure == Never {
    /// Returns this future as one whose error type is `failureType`: it never fails with it.
    ///
    /// Use it where a future that cannot fail must meet one that can: `zip`, `Future.all`, a
    /// parameter of a typed future. The child has this future's kind (lazy stays lazy) and value.
    ///
    /// ```swift
    /// let count = LazyFuture { cache.count }
    /// let both = zip(count.setFailureType(to: LoadError.self), download)   // download: Future<Data, LoadError>
    /// ```
    /// - Parameters:
    ///   - failureType: The error type of the new future.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future with this future's value that never fails. `failureType` `Never`
    ///   gives this future itself.
    @inlinable
    public func setFailureType<NewFailure: Error>(
        to failureType: NewFailure.Type,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value, NewFailure> {
        if let same = self as? Future<Value, NewFailure> { return same }
        return _map(fileID: fileID, line: line) { $0 }
    }
}

extension Future {
    /// Returns this future as one whose error type is `any Error`, for any error type.
    ///
    /// The child resolves as this future does, with the same value or the same error, and keeps
    /// its kind (lazy stays lazy). A future whose error type is already `any Error` is returned
    /// as it is, so erasing never wraps twice.
    ///
    /// ```swift
    /// let screen = zip(LazyFuture { 3 }.eraseFailure(), BackgroundFuture { try loadTitle() })
    /// ```
    ///
    /// Cancelling the result of `eraseFailure()` cancels this future only when it is this
    /// future (its error type was `any Error`). Otherwise the new future is cancelled alone: its
    /// readers wake with `CancellationError`, and this future's work goes on, since its error type
    /// has no room for `CancellationError`.
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future with this future's value or error, typed `any Error`.
    @inlinable
    public func eraseFailure(fileID: StaticString = #fileID, line: UInt = #line) -> Future<Value, any Error> {
        if let same = self as? Future<Value, any Error> { return same }
        return _map(fileID: fileID, line: line) { $0 }
    }
}
