extension Future {
    /// Calls `callback` with the result once the future resolves, on `context`.
    ///
    /// The callback runs exactly once, whether it is added before or after resolution, and
    /// from any thread. With the default `.immediate` context it runs on the thread that
    /// resolves the future, or at once on the caller's thread if it already has. Adding a
    /// callback never starts a lazy future's work.
    ///
    /// ```swift
    /// download.onComplete(on: .main) { result in
    ///     switch result {
    ///     case .success(let data): show(data)
    ///     case .failure(let error): report(error)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - context: Where the callback runs.
    ///   - callback: Receives the result.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    public func onComplete(
        on context: ExecutionContext = .immediate,
        _ callback: @escaping @Sendable (Result<Value, Failure>) -> Void
    ) -> Self {
        _whenResolved { result in context.execute { callback(result) } }
        return self
    }

    /// Calls `callback` with the value if the future succeeds, on `context`.
    ///
    /// ```swift
    /// thumbnail.onSuccess(on: .main) { imageView.image = $0 }
    /// ```
    /// - Parameters:
    ///   - context: Where the callback runs.
    ///   - callback: Receives the value.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    public func onSuccess(
        on context: ExecutionContext = .immediate,
        _ callback: @escaping @Sendable (Value) -> Void
    ) -> Self {
        _whenResolved { result in
            if case .success(let value) = result { context.execute { callback(value) } }
        }
        return self
    }

    /// Calls `callback` with the error if the future fails, on `context`.
    ///
    /// ```swift
    /// upload.onFailure { error in log.error("upload failed: \(error)") }
    /// ```
    /// - Parameters:
    ///   - context: Where the callback runs.
    ///   - callback: Receives the error.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    public func onFailure(
        on context: ExecutionContext = .immediate,
        _ callback: @escaping @Sendable (Failure) -> Void
    ) -> Self {
        _whenResolved { result in
            if case .failure(let error) = result { context.execute { callback(error) } }
        }
        return self
    }
}
