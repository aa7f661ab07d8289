// How a chain's error type is decided, and the overloads that make one-expression chains type-check.
//
// The rule. A derived future fails with the join of the error types on the way: the source's
// `Failure`, the error the closure throws, and (for `flatMap`) the inner future's `Failure`.
//   - `Never` joins anything: a side that cannot fail never changes the other's type.
//   - A type joins itself.
//   - `any Error` on the source side joins anything (the source already says "any error").
//   - Two different concrete types, or a concrete source with a closure or inner future of
//     `any Error`, do not join: the chain is rejected with a message that says what to write
//     (`mapError`, `eraseFailure()`, or a closure that declares `throws(E)`). Widening is never
//     silent, because a typed error lost on the way is lost for everyone downstream.
// A closure that says `try` but not what it throws is `any Error` in Swift 6.3, whatever it calls
// (swiftlang/swift#80787): on a source with a concrete error type, it has to say `throws(E)`.
//
// How the overloads resolve. Swift 6.3 ranks overloads that differ only in what their closure
// parameter throws as ambiguous, so every overload that overlaps a more common one is
// `@_disfavoredOverload`, and where two disfavored overloads overlap, a third, more specific in
// a position other than `throws` (an inner `Future<_, Never>` or `Future<_, any Error>`), is added
// for exactly the overlap. The overloads that reject a chain are `@available(*, unavailable)`:
// Swift picks an unavailable overload only when no available one fits, and then prints its
// message.
//
// | Source     | map                                 | flatMap                                        |
// | ---------- | ----------------------------------- | ---------------------------------------------- |
// | any F      | (V) -> T ⇒ F                        | (V) -> Future<T, F> ⇒ F                        |
// |            | (V) throws(F) -> T ⇒ F (disfavored) | (V) throws(F) -> Future<T, F> ⇒ F (disfavored) |
// |            |                                     | (V) -> Future<T, Never> ⇒ F (disfavored)       |
// |            | anything else: unavailable          | anything else: unavailable                     |
// | Never      | (V) throws(E) -> T ⇒ E (disfav.)    | (V) -> Future<T, E> ⇒ E (disfavored)           |
// |            |                                     | (V) throws(E) -> Future<T, E> ⇒ E (disfavored) |
// |            |                                     | (V) -> Future<T, any Error> (the overlap)      |
// | any Error  |                                     | (V) throws -> Future<T, E> ⇒ any Error (dis.)  |
// |            |                                     | (V) throws -> Future<T, any Error> (overlap)   |
// |            |                                     | (V) -> Future<T, Never> (the overlap)          |
// (The overlap overloads are disfavored too.) New combinators that take a closure follow the
// same pattern. One shape does not work: a non-throwing overload of a closure that *makes* a
// source (an initializer, `Future.task`, `Agent.async`) whose error type only the context gives.
// A literal source in a chain then has two routes to one type, which Swift calls ambiguous
// (tried: `Future.task { 5 }.flatMap { fetchUser($0) }`); such a source says `throws(E)` or
// uses `setFailureType(to:)` (Tests/CompileForms/Rejected/Creating.swift).
// Each overload is needed by a form in Tests/CompileForms: docs/design.md, Typing, names the forms
// that fail without each of flatMap's ten.

extension Future where Failure == Never {
    /// Returns a future holding `transform` applied to this future's value, or the error
    /// `transform` throws: a future that cannot fail becomes one that fails as `transform` does.
    ///
    /// ```swift
    /// let text = LazyFuture { bytes }.map { try decode($0) }   // Future<String, any Error>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: A function of the value that may throw. It must not block.
    /// - Returns: A future that fails with `transform`'s error, if it throws one.
    @inlinable @_disfavoredOverload
    public func map<NewValue: Sendable, NewFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(NewFailure) -> NewValue
    ) -> Future<NewValue, NewFailure> {
        _map(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future that `transform` makes from this future's value: a future
    /// that cannot fail becomes one that fails as the inner future does.
    ///
    /// ```swift
    /// let page = LazyFuture { url }.flatMap { url in fetch(url) }   // Future<Page, APIError>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value. It must not block.
    /// - Returns: A future that fails with the inner future's error, if any.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable, NewFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) -> Future<NewValue, NewFailure>
    ) -> Future<NewValue, NewFailure> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future that `transform` makes from this future's value, where
    /// `transform` may also throw the inner future's error type.
    ///
    /// ```swift
    /// let page = LazyFuture { path }.flatMap { path throws(APIError) in
    ///     try fetch(validated(path))        // fetch returns Future<Page, APIError>
    /// }
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value, or throws. It must not block.
    /// - Returns: A future that fails with `transform`'s error or the inner future's.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable, NewFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(NewFailure) -> Future<NewValue, NewFailure>
    ) -> Future<NewValue, NewFailure> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future, failing with `any Error`, that `transform` makes from this
    /// future's value.
    ///
    /// The two overloads above both fit this case; this one settles it.
    ///
    /// ```swift
    /// let contents = LazyFuture { path }.flatMap { path in BackgroundFuture { try read(path) } }
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value. It must not block.
    /// - Returns: A future that fails with the inner future's error, if any.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) -> Future<NewValue, any Error>
    ) -> Future<NewValue, any Error> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// A future that cannot fail has no error to map: this overload only warns.
    ///
    /// To change the error type, write ``setFailureType(to:fileID:line:)`` or ``Future/eraseFailure(fileID:line:)``.
    ///
    /// ```swift
    /// let widened = LazyFuture { 3 }.setFailureType(to: LoadError.self)   // not mapError
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Never called.
    /// - Returns: The future with the new error type, as ``setFailureType(to:fileID:line:)`` gives.
    @available(
        *, deprecated,
        message:
            "a future that cannot fail has no error to map; to change its error type write 'setFailureType(to:)' or 'eraseFailure()'"
    )
    public func mapError<NewFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Never) -> NewFailure
    ) -> Future<Value, NewFailure> {
        setFailureType(to: NewFailure.self, fileID: fileID, line: line)
    }

    /// A future that cannot fail has nothing to recover from: this overload only warns.
    ///
    /// Use the future as it is, or ``setFailureType(to:fileID:line:)`` to give it an error type.
    ///
    /// ```swift
    /// let count = LazyFuture { 3 }   // no recover needed: it cannot fail
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Never called.
    /// - Returns: The future with the new error type, as ``setFailureType(to:fileID:line:)`` gives.
    @available(
        *, deprecated,
        message:
            "a future that cannot fail has nothing to recover from; use it as it is, or write 'setFailureType(to:)'"
    )
    public func recover<NewFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Never) throws(NewFailure) -> Value
    ) -> Future<Value, NewFailure> {
        setFailureType(to: NewFailure.self, fileID: fileID, line: line)
    }
}

extension Future where Failure == any Error {
    /// Returns a future of the future that `transform` makes from this future's value, whatever
    /// the inner future's error type: the child fails with `any Error`.
    ///
    /// ```swift
    /// let user = token.flatMap { token in api.user(token) }   // api.user returns Future<User, APIError>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value, or throws. It must not block.
    /// - Returns: A future that fails with the first error on the way.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable, InnerFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws -> Future<NewValue, InnerFailure>
    ) -> Future<NewValue, any Error> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future, failing with `any Error`, that `transform` makes from
    /// this future's value.
    ///
    /// Two overloads fit this case; this one settles it.
    ///
    /// ```swift
    /// let page = url.flatMap { url throws in BackgroundFuture { try fetch(try validated(url)) } }
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value, or throws. It must not block.
    /// - Returns: A future that fails with the first error on the way.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws -> Future<NewValue, any Error>
    ) -> Future<NewValue, any Error> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future that cannot fail that `transform` makes from this
    /// future's value.
    ///
    /// Two overloads fit this case; this one settles it.
    ///
    /// ```swift
    /// let words = download.flatMap { data in LazyFuture { countWords(in: data) } }   // Future<Int, any Error>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value. It must not block.
    /// - Returns: A future that fails with this future's error, if any.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) -> Future<NewValue, Never>
    ) -> Future<NewValue, any Error> {
        _flatMap(fileID: fileID, line: line, transform)
    }
}

extension Future {
    /// Rejects a transform whose error type does not join this future's: see the message.
    ///
    /// ```swift
    /// let port = settings.map { s throws(ConfigError) in try parsePort(s) }   // settings: Future<_, ConfigError>
    /// ```
    /// - Parameters:
    ///   - fileID: Unused.
    ///   - line: Unused.
    ///   - transform: Unused.
    /// - Returns: Never returns.
    @available(
        *, unavailable,
        message:
            "the closure throws an error type other than this future's; a closure with 'try' throws 'any Error' unless it declares its type ('{ value throws(MyError) in ... }'); or convert the future's error first with 'mapError', or widen it with 'eraseFailure()'"
    )
    public func map<NewValue: Sendable, TransformFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> NewValue
    ) -> Future<NewValue, TransformFailure> {
        preconditionFailure("unavailable")
    }

    /// Rejects a transform whose error type, or whose future's, does not join this future's:
    /// see the message.
    ///
    /// ```swift
    /// let page = session.flatMap { s in fetchPage(s) }   // both Future<_, APIError>
    /// ```
    /// - Parameters:
    ///   - fileID: Unused.
    ///   - line: Unused.
    ///   - transform: Unused.
    /// - Returns: Never returns.
    @available(
        *, unavailable,
        message:
            "the closure or the future it returns fails with an error type other than this future's; give the inner future this future's error type (a closure that declares 'throws(MyError)', or 'setFailureType(to:)' on one that cannot fail), or convert with 'mapError', or widen both with 'eraseFailure()'"
    )
    public func flatMap<NewValue: Sendable, TransformFailure: Error, InnerFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> Future<NewValue, InnerFailure>
    ) -> Future<NewValue, InnerFailure> {
        preconditionFailure("unavailable")
    }
}
