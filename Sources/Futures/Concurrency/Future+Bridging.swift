extension Future {
    /// Makes a future of an `async` closure, run as a `Task`.
    ///
    /// Cancelling the future (when `Failure` is `any Error`) cancels the task.
    ///
    /// ```swift
    /// let profile = Future.task { try await api.profile(for: id) }   // Future<Profile, any Error>
    /// show(try profile.value)    // from synchronous code
    /// ```
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - work: The async computation.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future resolved with the task's outcome.
    public static func task(
        priority: TaskPriority? = nil,
        fileID: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable () async throws(Failure) -> Value
    ) -> Future<Value, Failure> {
        let promise = Promise<Value, Failure>(fileID: fileID, line: line)
        let task = Task(priority: priority) {
            do throws(Failure) {
                promise.succeed(try await work())
            } catch {
                promise.fail(error)
            }
        }
        // Untyped: the closure needs nothing typed (as in `_allConnected`).
        promise.future._addResolutionCallback { future in
            if future._isCancelled { task.cancel() }
        }
        return promise.future
    }

    /// Makes a future from a callback API of any shape: `start` gets a completion handler
    /// to hand to the API.
    ///
    /// Only the first call of the handler counts; later calls are ignored.
    ///
    /// ```swift
    /// let data = Future<Data, any Error>.wrap { complete in
    ///     legacyClient.fetch(url, retries: 3) { complete($0) }   // $0: Result<Data, any Error>
    /// }
    /// ```
    /// - Parameters:
    ///   - start: Starts the operation, now, on this thread.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future resolved by the first call of the handler.
    public static func wrap(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ start: (_ complete: @escaping @Sendable (Result<Value, Failure>) -> Void) -> Void
    ) -> Future<Value, Failure> {
        let promise = Promise<Value, Failure>(fileID: fileID, line: line)
        start { promise.complete(with: $0) }
        return promise.future
    }

    /// Turns a one-argument callback API into a function that returns a future.
    ///
    /// ```swift
    /// func fetch(_ url: URL, completion: @escaping @Sendable (Result<Data, any Error>) -> Void) { ... }
    /// let fetchFuture = Future.wrap(fetch)          // (URL) -> Future<Data, any Error>
    /// let page = fetchFuture(homeURL)
    /// ```
    /// - Parameter api: A function whose last parameter is a `Result` completion handler.
    /// - Returns: The same function, returning a future instead of taking a handler.
    public static func wrap<A>(
        _ api: @escaping (A, @escaping @Sendable (Result<Value, Failure>) -> Void) -> Void
    ) -> (A) -> Future<Value, Failure> {
        { a in wrap { api(a, $0) } }
    }

    /// Turns a two-argument callback API into a function that returns a future.
    ///
    /// ```swift
    /// let resize = Future.wrap(imageService.resize)   // (Image, Size) -> Future<Image, any Error>
    /// ```
    /// - Parameter api: A function whose last parameter is a `Result` completion handler.
    /// - Returns: The same function, returning a future instead of taking a handler.
    public static func wrap<A, B>(
        _ api: @escaping (A, B, @escaping @Sendable (Result<Value, Failure>) -> Void) -> Void
    ) -> (A, B) -> Future<Value, Failure> {
        { a, b in wrap { api(a, b, $0) } }
    }

    /// Turns a three-argument callback API into a function that returns a future.
    ///
    /// ```swift
    /// let copy = Future.wrap(storage.copy)   // (Path, Path, Options) -> Future<Void, any Error>
    /// ```
    /// - Parameter api: A function whose last parameter is a `Result` completion handler.
    /// - Returns: The same function, returning a future instead of taking a handler.
    public static func wrap<A, B, C>(
        _ api: @escaping (A, B, C, @escaping @Sendable (Result<Value, Failure>) -> Void) -> Void
    ) -> (A, B, C) -> Future<Value, Failure> {
        { a, b, c in wrap { api(a, b, c, $0) } }
    }
}

/// The error of a callback API that called its handler with neither a value nor an error.
public struct MissingCallbackValueError: Error, CustomStringConvertible {
    /// Where the wrapped call was made.
    public let site: String

    /// Makes the error for the given site.
    ///
    /// ```swift
    /// throw MissingCallbackValueError(site: "Loader.swift:42")
    /// ```
    public init(site: String) { self.site = site }

    /// "the callback API wrapped at Loader.swift:42 completed with neither a value nor an error".
    public var description: String { "the callback API wrapped at \(site) completed with neither a value nor an error" }
}

extension Future where Failure == any Error {
    /// Makes a future from a Foundation-style callback API, whose handler gets an optional
    /// value and an optional error.
    ///
    /// A handler called with neither fails the future with ``MissingCallbackValueError``.
    ///
    /// ```swift
    /// let contents = Future<[String], any Error>.wrap { complete in
    ///     fileManager.listContents(of: folder) { names, error in complete(names, error) }
    /// }
    /// ```
    /// - Parameters:
    ///   - start: Starts the operation, now, on this thread.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future resolved by the first call of the handler.
    public static func wrap(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ start: (_ complete: @escaping @Sendable (Value?, (any Error)?) -> Void) -> Void
    ) -> Future<Value, any Error> {
        let promise = Promise<Value, any Error>(fileID: fileID, line: line)
        let site = "\(fileID):\(line)"
        start { value, error in
            if let error {
                promise.fail(error)
            } else if let value {
                promise.succeed(value)
            } else {
                promise.fail(MissingCallbackValueError(site: site))
            }
        }
        return promise.future
    }
}
