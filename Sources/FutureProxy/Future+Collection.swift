extension Future: Collection where Value: Collection, Failure == Never {
    /// The value's index type.
    public typealias Index = Value.Index

    /// The value's subsequence type: `future[1...]` is what `value[1...]` is.
    public typealias SubSequence = Value.SubSequence

    /// The value's type of indices.
    public typealias Indices = Value.Indices

    /// The value's first index.
    ///
    /// ```swift
    /// let name = LazyFuture { "Ada" }
    /// print(name[name.startIndex])   // A
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public var startIndex: Index {
        value.startIndex
    }

    /// The value's past-the-end index.
    ///
    /// ```swift
    /// let name = LazyFuture { "Ada" }
    /// print(name[name.index(before: name.endIndex)])   // a
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public var endIndex: Index {
        value.endIndex
    }

    /// The value's indices.
    ///
    /// ```swift
    /// for i in scores.indices { print(i, scores[i]) }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public var indices: Indices {
        value.indices
    }

    /// The number of elements of the value, as fast as the value counts them.
    ///
    /// ```swift
    /// let lines = BackgroundFuture { readLines() }
    /// print(lines.count)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public var count: Int {
        value.count
    }

    /// Whether the value is empty.
    ///
    /// ```swift
    /// if results.isEmpty { showPlaceholder() }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public var isEmpty: Bool {
        value.isEmpty
    }

    /// The element at `position`: `future[i]` is `value[i]`.
    ///
    /// ```swift
    /// let primes = LazyFuture { sieve(upTo: 100) }
    /// print(primes[0])
    /// ```
    /// - Parameter position: A valid index of the value.
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public subscript(position: Index) -> Element {
        value[position]
    }

    /// The value's subsequence over `bounds`.
    ///
    /// ```swift
    /// let primes = LazyFuture { sieve(upTo: 100) }
    /// print(primes[0..<3])
    /// ```
    /// - Parameter bounds: A range of valid indices of the value.
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public subscript(bounds: Range<Index>) -> SubSequence {
        value[bounds]
    }

    /// The value's subsequence over `range`: `future[1...]`, `future[..<n]`.
    ///
    /// Declared here so that `future[1...]` has one meaning: without it, `Collection`'s own
    /// range subscript and the ``Proxy`` one would both apply.
    ///
    /// ```swift
    /// let primes = LazyFuture { sieve(upTo: 100) }
    /// print(primes[3...])
    /// ```
    /// - Parameter range: A range expression of valid indices of the value.
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public subscript<Range: RangeExpression>(range: Range) -> SubSequence where Range.Bound == Index {
        value[range]
    }

    /// The index after `i` in the value.
    ///
    /// ```swift
    /// let second = name.index(after: name.startIndex)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func index(after i: Index) -> Index {
        value.index(after: i)
    }

    /// Moves `i` to the index after it in the value.
    ///
    /// ```swift
    /// var i = name.startIndex
    /// name.formIndex(after: &i)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func formIndex(after i: inout Index) {
        value.formIndex(after: &i)
    }

    /// The index `distance` positions from `i`, as fast as the value moves its indices.
    ///
    /// ```swift
    /// let third = name.index(name.startIndex, offsetBy: 2)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func index(_ i: Index, offsetBy distance: Int) -> Index {
        value.index(i, offsetBy: distance)
    }

    /// The index `distance` positions from `i`, or `nil` if that passes `limit`.
    ///
    /// ```swift
    /// let tenth = name.index(name.startIndex, offsetBy: 9, limitedBy: name.endIndex)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func index(_ i: Index, offsetBy distance: Int, limitedBy limit: Index) -> Index? {
        value.index(i, offsetBy: distance, limitedBy: limit)
    }

    /// The distance between two indices of the value, as fast as the value measures it.
    ///
    /// ```swift
    /// let length = name.distance(from: name.startIndex, to: name.endIndex)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func distance(from start: Index, to end: Index) -> Int {
        value.distance(from: start, to: end)
    }
}
