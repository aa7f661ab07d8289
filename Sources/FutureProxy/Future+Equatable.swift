extension Future: Equatable where Value: Equatable, Failure == Never {
    /// Whether two futures' values are equal: `a == b` compares `a.value` and `b.value`.
    ///
    /// Two distinct futures with equal values are equal; use `===` for identity.
    ///
    /// ```swift
    /// let a = LazyFuture { 6 * 7 }
    /// let b = BackgroundFuture { 42 }
    /// assert(a == b)
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "comparing futures blocks until they resolve; compare 'await future.get()'")
    public static func == (lhs: Future, rhs: Future) -> Bool {
        lhs.value == rhs.value
    }
}

extension Future where Value: Equatable, Failure == Never {
    /// Whether the future's value equals a plain value: `future == 42`.
    ///
    /// ```swift
    /// let answer = LazyFuture { 6 * 7 }
    /// if answer == 42 { print("as expected") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func == (lhs: Future, rhs: Value) -> Bool {
        lhs.value == rhs
    }

    /// Whether a plain value equals the future's value: `42 == future`.
    ///
    /// ```swift
    /// let answer = LazyFuture { 6 * 7 }
    /// assert(42 == answer)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func == (lhs: Value, rhs: Future) -> Bool {
        lhs == rhs.value
    }

    /// Whether the future's value differs from a plain value: `future != 0`.
    ///
    /// ```swift
    /// let status = BackgroundFuture { check() }
    /// if status != .ok { alert() }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func != (lhs: Future, rhs: Value) -> Bool {
        lhs.value != rhs
    }

    /// Whether a plain value differs from the future's value: `0 != future`.
    ///
    /// ```swift
    /// let count = LazyFuture { countRows() }
    /// if 0 != count { render() }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func != (lhs: Value, rhs: Future) -> Bool {
        lhs != rhs.value
    }
}
