extension Future: Sequence where Value: Sequence, Failure == Never {
    /// The elements of a future of a sequence are the value's elements.
    public typealias Element = Value.Element

    /// The value's iterator.
    public typealias Iterator = Value.Iterator

    /// An iterator over the value: `for x in future` iterates the value.
    ///
    /// ```swift
    /// let words = LazyFuture { text.split(separator: " ") }
    /// for word in words { print(word) }   // splits the text, then iterates
    /// ```
    /// - Returns: The value's own iterator.
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "iterating a future blocks until it resolves; iterate 'await future.get()'")
    public func makeIterator() -> Value.Iterator {
        value.makeIterator()
    }

    /// The value's underestimated count.
    ///
    /// ```swift
    /// var copy: [Int] = []
    /// copy.reserveCapacity(numbers.underestimatedCount)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public var underestimatedCount: Int {
        value.underestimatedCount
    }

    /// Calls `body` with the value's contiguous storage, if it has any: what lets `Array(future)`
    /// copy an array future's elements in one go.
    ///
    /// ```swift
    /// let sum = numbers.withContiguousStorageIfAvailable { $0.reduce(0, +) }
    /// ```
    /// - Parameter body: A function of a buffer over the value's elements.
    /// - Returns: What `body` returns, or `nil` if the value has no contiguous storage.
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<Value.Element>) throws -> Result
    ) rethrows -> Result? {
        try value.withContiguousStorageIfAvailable(body)
    }
}
