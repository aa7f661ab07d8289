extension Proxy {
    /// The subject itself, to call its methods or pass it on: `proxy().uppercased()`.
    ///
    /// Key paths cannot name methods, so this is how a method of the subject is reached; it is
    /// also the way to a member that the proxy's own members hide (`future().value`), and the
    /// way to write through a proxy that can fail (`try future().title = "x"`).
    ///
    /// ```swift
    /// let name = LazyFuture { loadName() }   // Future<String, Never>
    /// print(name().uppercased())
    /// let page = BackgroundFuture { try fetchPage() }
    /// let words = try page().words(limit: 10)
    /// ```
    /// - Returns: The subject.
    /// - Throws: The error that producing the subject ended with; nothing when `Failure` is `Never`.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "reading the value blocks until it exists; use 'await future.get()'")
    public func callAsFunction() throws(Failure) -> Subject {
        try resolveSubject()
    }
}
