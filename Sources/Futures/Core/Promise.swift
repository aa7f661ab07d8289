/// The writing end of a future: your code completes it, once.
///
/// ```swift
/// let promise = Promise<Data, any Error>()
/// session.load(url) { data, error in if let data { promise.succeed(data) } else { promise.fail(error!) } }
/// return promise.future
/// ```
///
/// The first completion wins; later ones return `false`. A never-completed promise leaves its
/// future pending, so complete every promise; debug builds report one dropped while its future is
/// pending and reachable (``FutureDiagnostics/handler``).
public struct Promise<Value: Sendable, Failure: Error>: Sendable {
    #if DEBUG
        /// Reports the promise if it is dropped pending.
        private let watch: PromiseWatch<Value, Failure>

        /// The future this promise completes.
        ///
        /// ```swift
        /// let ready = Promise<Void, Never>()
        /// ready.future.onSuccess { print("ready") }
        /// ```
        public var future: Future<Value, Failure> { watch.future }

        /// Makes a promise with a pending future.
        ///
        /// ```swift
        /// let ready = Promise<Void, Never>()
        /// ```
        public init(fileID: StaticString = #fileID, line: UInt = #line) {
            watch = PromiseWatch(Future(kind: .promise, work: nil, fileID: fileID, line: line))
        }
    #else
        /// The future this promise completes.
        ///
        /// ```swift
        /// let ready = Promise<Void, Never>()
        /// ready.future.onSuccess { print("ready") }
        /// ```
        public let future: Future<Value, Failure>

        /// Makes a promise with a pending future.
        ///
        /// ```swift
        /// let ready = Promise<Void, Never>()
        /// ```
        @inlinable
        public init(fileID: StaticString = #fileID, line: UInt = #line) {
            future = Future(kind: .promise, work: nil, fileID: fileID, line: line)
        }
    #endif

    /// Resolves the future with `value`.
    ///
    /// ```swift
    /// promise.succeed(42)
    /// ```
    /// - Returns: `true` if this call completed the promise; `false` if it was already complete.
    @inlinable
    @discardableResult
    public func succeed(_ value: Value) -> Bool {
        future._complete(with: .success(value))
    }

    /// Resolves the future with `error`.
    ///
    /// ```swift
    /// promise.fail(URLError(.timedOut))
    /// ```
    /// - Returns: `true` if this call completed the promise; `false` if it was already complete.
    @inlinable
    @discardableResult
    public func fail(_ error: Failure) -> Bool {
        future._complete(with: .failure(error))
    }

    /// Resolves the future with `result`.
    ///
    /// ```swift
    /// promise.complete(with: Result { try decode(data) })
    /// ```
    /// - Returns: `true` if this call completed the promise; `false` if it was already complete.
    @inlinable
    @discardableResult
    public func complete(with result: Result<Value, Failure>) -> Bool {
        future._complete(with: result)
    }
}

extension Promise where Value == Void {
    /// Resolves a `Void` future.
    ///
    /// ```swift
    /// let done = Promise<Void, Never>()
    /// done.succeed()
    /// ```
    /// - Returns: `true` if this call completed the promise; `false` if it was already complete.
    @inlinable
    @discardableResult
    public func succeed() -> Bool { future._complete(with: .success(())) }
}
