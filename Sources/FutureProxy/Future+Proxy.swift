extension Future: Proxy {
    /// The subject a future stands in for is its value.
    public typealias Subject = Value

    /// The value, waiting for it (or computing it, for a lazy future) if needed: the same read
    /// as `value`, and what every forwarded member and conformance reads.
    ///
    /// ```swift
    /// let table = LazyFuture { buildTable() }
    /// let rows = table.resolveSubject().count   // the same as table.value.count, or table.count
    /// ```
    /// - Returns: The value.
    /// - Throws: The work's error, typed as `Failure`.
    /// - Important: Blocks the calling thread until the future resolves. From async code use
    ///   `get()`, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    public func resolveSubject() throws(Failure) -> Value {
        try value
    }
}
