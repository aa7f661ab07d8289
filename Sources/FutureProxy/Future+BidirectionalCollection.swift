extension Future: BidirectionalCollection where Value: BidirectionalCollection, Failure == Never {
    /// The index before `i` in the value.
    ///
    /// ```swift
    /// let name = LazyFuture { "Ada" }
    /// print(name[name.index(before: name.endIndex)])   // a
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func index(before i: Index) -> Index {
        value.index(before: i)
    }

    /// Moves `i` to the index before it in the value.
    ///
    /// ```swift
    /// var i = name.endIndex
    /// name.formIndex(before: &i)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func formIndex(before i: inout Index) {
        value.formIndex(before: &i)
    }
}
