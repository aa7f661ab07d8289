// Every operator is forwarded to the value's own, rather than derived from `<`: a value type may
// define `<=`, `>` and `>=` with their own meaning (floating-point NaN compares false to everything,
// so `nan <= nan` is false, where a `<=` derived from `<` would say true).

extension Future: Comparable where Value: Comparable, Failure == Never {
    /// Whether the first future's value is less than the second's: `a < b`.
    ///
    /// ```swift
    /// let fastest = [route1, route2, route3].min()   // futures of travel times
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "comparing futures blocks until they resolve; compare 'await future.get()'")
    public static func < (lhs: Future, rhs: Future) -> Bool {
        lhs.value < rhs.value
    }

    /// Whether the first future's value is less than or equal to the second's: `a <= b`.
    ///
    /// ```swift
    /// let a = LazyFuture { 1.5 }, b = LazyFuture { 2.5 }
    /// print(a <= b)
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "comparing futures blocks until they resolve; compare 'await future.get()'")
    public static func <= (lhs: Future, rhs: Future) -> Bool {
        lhs.value <= rhs.value
    }

    /// Whether the first future's value is greater than the second's: `a > b`.
    ///
    /// ```swift
    /// let a = LazyFuture { 1.5 }, b = LazyFuture { 2.5 }
    /// print(a > b)
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "comparing futures blocks until they resolve; compare 'await future.get()'")
    public static func > (lhs: Future, rhs: Future) -> Bool {
        lhs.value > rhs.value
    }

    /// Whether the first future's value is greater than or equal to the second's: `a >= b`.
    ///
    /// ```swift
    /// let a = LazyFuture { 1.5 }, b = LazyFuture { 2.5 }
    /// print(a >= b)
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "comparing futures blocks until they resolve; compare 'await future.get()'")
    public static func >= (lhs: Future, rhs: Future) -> Bool {
        lhs.value >= rhs.value
    }
}

extension Future where Value: Comparable, Failure == Never {
    /// Whether the future's value is less than a plain value: `future < 10`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// if total < 100 { print("checked") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func < (lhs: Future, rhs: Value) -> Bool {
        lhs.value < rhs
    }

    /// Whether a plain value is less than the future's value: `10 < future`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// if 100 < total { print("checked") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func < (lhs: Value, rhs: Future) -> Bool {
        lhs < rhs.value
    }

    /// Whether the future's value is less than or equal to a plain value: `future <= 10`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// if total <= 100 { print("checked") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func <= (lhs: Future, rhs: Value) -> Bool {
        lhs.value <= rhs
    }

    /// Whether a plain value is less than or equal to the future's value: `10 <= future`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// if 100 <= total { print("checked") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func <= (lhs: Value, rhs: Future) -> Bool {
        lhs <= rhs.value
    }

    /// Whether the future's value is greater than a plain value: `future > 10`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// if total > 100 { print("checked") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func > (lhs: Future, rhs: Value) -> Bool {
        lhs.value > rhs
    }

    /// Whether a plain value is greater than the future's value: `10 > future`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// if 100 > total { print("checked") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func > (lhs: Value, rhs: Future) -> Bool {
        lhs > rhs.value
    }

    /// Whether the future's value is greater than or equal to a plain value: `future >= 10`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// if total >= 100 { print("checked") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func >= (lhs: Future, rhs: Value) -> Bool {
        lhs.value >= rhs
    }

    /// Whether a plain value is greater than or equal to the future's value: `10 >= future`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// if 100 >= total { print("checked") }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "comparing a future blocks until it resolves; compare 'await future.get()'")
    public static func >= (lhs: Value, rhs: Future) -> Bool {
        lhs >= rhs.value
    }
}
