// On a proxy that is also a sequence (a `Future<[T], Never>`), `map` and `flatMap` belong to the
// proxy: a future's `map` transforms its whole value into a new future. Swift would otherwise
// pick the sequence's `map` on its own whenever the closure only makes sense for an element
// (`numbers.map { $0 * 2 }`), and silently return an array, eagerly. These overloads are more
// specific than `Sequence`'s and `Collection`'s, so they are the ones picked in that case, and
// their deprecation turns the silent choice into a warning that says what to write. They still
// do what was asked, so code that ignores the warning works.

extension Sequence where Self: Proxy {
    /// Maps the elements now. Deprecated on a proxy: write `proxy().map` for the elements, or
    /// give the closure the whole value to get the proxy's own `map`.
    ///
    /// ```swift
    /// let numbers = LazyFuture { load() }        // Future<[Int], Never>
    /// let doubled = numbers().map { $0 * 2 }     // [Int], now
    /// ```
    /// - Parameter transform: A function of one element.
    /// - Returns: The transformed elements.
    @available(
        *, deprecated,
        message:
            "on a future 'map' transforms the whole value into a future; to map the elements now, write 'future().map'"
    )
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        try mapElementsNow(transform)
    }

    /// The elements mapped now, as `Sequence.map` would; shared by the deprecated overloads.
    func mapElementsNow<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(underestimatedCount)
        for element in self { result.append(try transform(element)) }
        return result
    }

    /// Maps the elements to sequences and joins them, now. Deprecated on a proxy: write
    /// `proxy().flatMap` for the elements, or return a future from the closure to get the
    /// proxy's own `flatMap`.
    ///
    /// ```swift
    /// let groups = LazyFuture { loadGroups() }              // Future<[[Int]], Never>
    /// let members = groups().flatMap { $0 }                 // [Int], now
    /// ```
    /// - Parameter transform: A function from one element to a sequence.
    /// - Returns: The elements of all the sequences, in order.
    @available(
        *, deprecated,
        message: "on a future 'flatMap' chains another future; to flat-map the elements now, write 'future().flatMap'"
    )
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func flatMap<Segment: Sequence>(_ transform: (Element) throws -> Segment) rethrows -> [Segment.Element] {
        var result: [Segment.Element] = []
        for element in self { result.append(contentsOf: try transform(element)) }
        return result
    }
}

extension Collection where Self: Proxy {
    /// Maps the elements now. Deprecated on a proxy: write `proxy().map` for the elements, or
    /// give the closure the whole value to get the proxy's own `map`.
    ///
    /// ```swift
    /// let names = LazyFuture { loadNames() }           // Future<[String], Never>
    /// let loud = names().map { $0.uppercased() }       // [String], now
    /// ```
    /// - Parameter transform: A function of one element.
    /// - Returns: The transformed elements.
    @available(
        *, deprecated,
        message:
            "on a future 'map' transforms the whole value into a future; to map the elements now, write 'future().map'"
    )
    @available(*, noasync, message: "reading a future blocks until it resolves; use 'await future.get()'")
    public func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        try mapElementsNow(transform)
    }
}
