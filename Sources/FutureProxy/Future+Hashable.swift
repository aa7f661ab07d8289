extension Future: Hashable where Value: Hashable, Failure == Never {
    /// Hashes the future's value, so that a future and its value hash alike and futures with
    /// equal values collapse in a `Set`.
    ///
    /// ```swift
    /// let tags: Set = [LazyFuture { "swift" }, BackgroundFuture { "swift" }]
    /// assert(tags.count == 1)
    /// ```
    /// - Parameter hasher: The hasher to feed the value to.
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "hashing a future blocks until it resolves; hash 'await future.get()'")
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
