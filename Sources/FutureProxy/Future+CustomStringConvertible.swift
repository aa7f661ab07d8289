extension Future: CustomStringConvertible where Failure == Never {
    /// The value's description: `"\(future)"` and `print(future)` show the value.
    ///
    /// This holds whatever the value's type: the text is `String(describing: value)`, so a
    /// value that conforms to `CustomStringConvertible` uses its own `description`, and any
    /// other prints as it would on its own. A future that can fail prints, without blocking,
    /// its `debugDescription` instead: what it is and how far it got.
    ///
    /// ```swift
    /// let greeting = LazyFuture { "Hello, " + name }
    /// print("\(greeting)!")   // Hello, Ada!
    /// ```
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "describing a future blocks until it resolves; describe 'await future.get()'")
    public var description: String {
        String(describing: value)
    }
}
