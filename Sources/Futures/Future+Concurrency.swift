extension Future {
    /// The value, suspending the calling task until the future resolves.
    ///
    /// This is the read to use from async code: it registers a callback and suspends, so no
    /// thread of Swift's cooperative pool is parked. A lazy future's work is started on the
    /// global context, not on the calling task's thread.
    ///
    /// ```swift
    /// let image = BackgroundFuture { decode(bytes) }
    /// let shown = try await image.get()
    /// ```
    /// - Throws: The work's error, typed as `Failure`.
    /// - Important: Cancelling the calling task does not end the wait: the future resolves on
    ///   its own terms.
    public func get() async throws(Failure) -> Value {
        if let result = _resolvedResult { return try result.get() }
        startWithoutBlocking()
        let result = await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Value, Failure>, Never>) in
            _whenResolved { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}
