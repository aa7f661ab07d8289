// Changing a future's error type without changing its outcome (Combine's names).

extension Future where Failure == Never {
    /// Returns this future as one whose error type is `failureType`: it never fails with it.
    ///
    /// For `zip`, `Future.all` or a typed parameter. The child keeps this future's kind and value.
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
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value, NewFailure> {
        if let same = self as? Future<Value, NewFailure> { return same }
        return _map(fileID: fileID, line: line) { $0 }
    }
}

extension Future {
    /// Returns this future as one whose error type is `any Error`, for any error type.
    ///
    /// The child keeps this future's outcome and kind; one already typed `any Error` is returned as is.
    ///
    /// ```swift
    /// let screen = zip(LazyFuture { 3 }.eraseFailure(), BackgroundFuture { try loadTitle() })
    /// ```
    ///
    /// Cancelling the result cancels this future only when it is this future; otherwise the new
    /// future is cancelled alone and this one's work goes on.
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
