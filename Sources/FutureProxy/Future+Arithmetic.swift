// Arithmetic forces: `future + 1` waits for the value and is a plain value, like every other
// forwarded operation, so that code written for the value's type keeps its types. A lazy
// compound result (MAFuture's compound futures) is what `map` gives: `future.map { $0 + 1 }`.
// The DocC article "Standing in for the value", "Arithmetic forces", gives the reasons.

extension Future where Value: AdditiveArithmetic, Failure == Never {
    /// The sum of the future's value and a plain value: `future + x` is `future.value + x`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// let result = total + bonus   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func + (lhs: Future, rhs: Value) -> Value {
        lhs.value + rhs
    }

    /// The sum of a plain value and the future's value: `x + future` is `x + future.value`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// let result = bonus + total   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func + (lhs: Value, rhs: Future) -> Value {
        lhs + rhs.value
    }

    /// The sum of two futures' values: `a + b` is `a.value + b.value`.
    ///
    /// ```swift
    /// let a = BackgroundFuture { measure(left) }, b = BackgroundFuture { measure(right) }
    /// let result = a + b   // waits for both; a plain value
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func + (lhs: Future, rhs: Future) -> Value {
        lhs.value + rhs.value
    }

    /// Adds the future's value to a plain variable: `x += future`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// var bonus = 10
    /// bonus += total
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func += (lhs: inout Value, rhs: Future) {
        lhs += rhs.value
    }

    /// The difference of the future's value and a plain value: `future - x` is `future.value - x`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// let result = total - bonus   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func - (lhs: Future, rhs: Value) -> Value {
        lhs.value - rhs
    }

    /// The difference of a plain value and the future's value: `x - future` is `x - future.value`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// let result = bonus - total   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func - (lhs: Value, rhs: Future) -> Value {
        lhs - rhs.value
    }

    /// The difference of two futures' values: `a - b` is `a.value - b.value`.
    ///
    /// ```swift
    /// let a = BackgroundFuture { measure(left) }, b = BackgroundFuture { measure(right) }
    /// let result = a - b   // waits for both; a plain value
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func - (lhs: Future, rhs: Future) -> Value {
        lhs.value - rhs.value
    }

    /// Subtracts the future's value from a plain variable: `x -= future`.
    ///
    /// ```swift
    /// let total = BackgroundFuture { sumOfSales() }
    /// var bonus = 10
    /// bonus -= total
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func -= (lhs: inout Value, rhs: Future) {
        lhs -= rhs.value
    }
}

extension Future where Value: Numeric, Failure == Never {
    /// The product of the future's value and a plain value: `future * x` is `future.value * x`.
    ///
    /// ```swift
    /// let rate = LazyFuture { currentRate() }
    /// let result = rate * hours   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func * (lhs: Future, rhs: Value) -> Value {
        lhs.value * rhs
    }

    /// The product of a plain value and the future's value: `x * future` is `x * future.value`.
    ///
    /// ```swift
    /// let rate = LazyFuture { currentRate() }
    /// let result = hours * rate   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func * (lhs: Value, rhs: Future) -> Value {
        lhs * rhs.value
    }

    /// The product of two futures' values: `a * b` is `a.value * b.value`.
    ///
    /// ```swift
    /// let a = BackgroundFuture { measure(left) }, b = BackgroundFuture { measure(right) }
    /// let result = a * b   // waits for both; a plain value
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func * (lhs: Future, rhs: Future) -> Value {
        lhs.value * rhs.value
    }

    /// Multiplies a plain variable by the future's value: `x *= future`.
    ///
    /// ```swift
    /// let rate = LazyFuture { currentRate() }
    /// var hours = 10
    /// hours *= rate
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func *= (lhs: inout Value, rhs: Future) {
        lhs *= rhs.value
    }
}

extension Future where Value: BinaryInteger, Failure == Never {
    /// The quotient of the future's value and a plain value: `future / x` is `future.value / x`.
    ///
    /// ```swift
    /// let count = LazyFuture { countRows() }
    /// let result = count / pageSize   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func / (lhs: Future, rhs: Value) -> Value {
        lhs.value / rhs
    }

    /// The quotient of a plain value and the future's value: `x / future` is `x / future.value`.
    ///
    /// ```swift
    /// let count = LazyFuture { countRows() }
    /// let result = pageSize / count   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func / (lhs: Value, rhs: Future) -> Value {
        lhs / rhs.value
    }

    /// The quotient of two futures' values: `a / b` is `a.value / b.value`.
    ///
    /// ```swift
    /// let a = BackgroundFuture { measure(left) }, b = BackgroundFuture { measure(right) }
    /// let result = a / b   // waits for both; a plain value
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func / (lhs: Future, rhs: Future) -> Value {
        lhs.value / rhs.value
    }

    /// Divides a plain variable by the future's value: `x /= future`.
    ///
    /// ```swift
    /// let count = LazyFuture { countRows() }
    /// var pageSize = 10
    /// pageSize /= count
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func /= (lhs: inout Value, rhs: Future) {
        lhs /= rhs.value
    }

    /// The remainder of the future's value and a plain value: `future % x` is `future.value % x`.
    ///
    /// ```swift
    /// let count = LazyFuture { countRows() }
    /// let result = count % pageSize   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func % (lhs: Future, rhs: Value) -> Value {
        lhs.value % rhs
    }

    /// The remainder of a plain value and the future's value: `x % future` is `x % future.value`.
    ///
    /// ```swift
    /// let count = LazyFuture { countRows() }
    /// let result = pageSize % count   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func % (lhs: Value, rhs: Future) -> Value {
        lhs % rhs.value
    }

    /// The remainder of two futures' values: `a % b` is `a.value % b.value`.
    ///
    /// ```swift
    /// let a = BackgroundFuture { measure(left) }, b = BackgroundFuture { measure(right) }
    /// let result = a % b   // waits for both; a plain value
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func % (lhs: Future, rhs: Future) -> Value {
        lhs.value % rhs.value
    }

    /// Replaces a plain variable with its remainder by the future's value: `x %= future`.
    ///
    /// ```swift
    /// let count = LazyFuture { countRows() }
    /// var pageSize = 10
    /// pageSize %= count
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func %= (lhs: inout Value, rhs: Future) {
        lhs %= rhs.value
    }
}

extension Future where Value: FloatingPoint, Failure == Never {
    /// The quotient of the future's value and a plain value: `future / x` is `future.value / x`.
    ///
    /// ```swift
    /// let distance = BackgroundFuture { measure() }
    /// let result = distance / time   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func / (lhs: Future, rhs: Value) -> Value {
        lhs.value / rhs
    }

    /// The quotient of a plain value and the future's value: `x / future` is `x / future.value`.
    ///
    /// ```swift
    /// let distance = BackgroundFuture { measure() }
    /// let result = time / distance   // a plain value, not a future
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func / (lhs: Value, rhs: Future) -> Value {
        lhs / rhs.value
    }

    /// The quotient of two futures' values: `a / b` is `a.value / b.value`.
    ///
    /// ```swift
    /// let a = BackgroundFuture { measure(left) }, b = BackgroundFuture { measure(right) }
    /// let result = a / b   // waits for both; a plain value
    /// ```
    /// - Important: Blocks the calling thread until both futures resolve.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func / (lhs: Future, rhs: Future) -> Value {
        lhs.value / rhs.value
    }

    /// Divides a plain variable by the future's value: `x /= future`.
    ///
    /// ```swift
    /// let distance = BackgroundFuture { measure() }
    /// var time = 10
    /// time /= distance
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static func /= (lhs: inout Value, rhs: Future) {
        lhs /= rhs.value
    }
}

extension Future where Value: SignedNumeric, Failure == Never {
    /// The negated value: `-future` is `-future.value`.
    ///
    /// ```swift
    /// let balance = LazyFuture { currentBalance() }
    /// let debt = -balance   // a plain value
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "arithmetic on a future blocks until it resolves; use 'await future.get()'")
    public static prefix func - (operand: Future) -> Value {
        -operand.value
    }
}
